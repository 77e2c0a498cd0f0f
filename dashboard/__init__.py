"""The director's desk pages of a running tournament: the dashboard, a series' tables, a table, the office grid."""
