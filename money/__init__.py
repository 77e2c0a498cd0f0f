"""The money of a tournament: each table's settlement (5.5.5) and fee account, the prize pool."""
