"""The games: every deal as the scoresheet records it (5.5.2), valued by the rules engine,
entered exactly once, the second list, the office grid's rows, and the triggers that keep
the seat totals and the results mark. Its app label stays ``scoring``: the tables keep
their names."""
