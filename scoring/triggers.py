"""The sums the database keeps itself, with triggers: what keeps which total, and why.

Two kinds of rows are never written by the office's Python code, only by triggers on the
tables they sum, in the same transaction as the change:

- **Seat totals** (:class:`scoring.models.SeatTotal`, table ``scoring_seattotal``): per
  table and seat, the game points, won and lost games of the deals that seat declared.
  A game inserted adds its score to its declarer's row, a game deleted takes it away, a
  game updated does both (a corrected declarer moves the points to the right seat). The
  standings read one row per seat instead of grouping every game of the tournament
  (:func:`standings.places.seat_totals_differ` checks them against the games).
- **The results mark** (:class:`scoring.models.ResultsMark`, ``scoring_resultsmark``):
  a counter per tournament and scope, one more at every change of what its standings
  and projector page show: a sheet's games and sign-off count on the sheet's row (scope:
  the table's id), series, tables, seats, registrations, teams, categories, the
  tournament, a player's name or club and a club's name on the tournament's row (scope
  0). The public pages' cache is keyed by it (:mod:`standings.cache`).

Triggers, not signals or save(): no way of writing (the views, the imports, the admin,
bulk writes, raw SQL, the load test) can forget to count. SQLite and PostgreSQL each
get their own dialect.

The migrations create them from here: 0004 the seat totals, 0008 the results mark, 0009
and 0012 the results mark again on SQLite after tournaments/0010 and 0017 rebuilt a table
(SQLite drops a table's triggers when Django rebuilds it: a migration that rebuilds one
of the tables in :data:`RESULTS_MARK_SOURCES` or ``scoring_game`` must call
:func:`recreate_on_sqlite`), 0013 the mark on PostgreSQL counted once per statement on
inserts and deletes.
A migration runs the statements as they are here when it runs, so these definitions are
history: change a trigger by adding new statements and a new migration, never by
editing these.
"""

from __future__ import annotations

from collections.abc import Callable

SEAT_TOTALS_SQLITE_UP = [
    """
    CREATE TRIGGER scoring_game_seat_total_insert AFTER INSERT ON scoring_game
    WHEN NEW.declarer_seat IS NOT NULL
    BEGIN
        INSERT INTO scoring_seattotal (table_id, number, points, won, lost)
        VALUES (NEW.table_id, NEW.declarer_seat, NEW.score, NEW.won, NEW.lost)
        ON CONFLICT (table_id, number) DO UPDATE SET
            points = points + excluded.points, won = won + excluded.won, lost = lost + excluded.lost;
    END
    """,
    """
    CREATE TRIGGER scoring_game_seat_total_delete AFTER DELETE ON scoring_game
    WHEN OLD.declarer_seat IS NOT NULL
    BEGIN
        UPDATE scoring_seattotal SET points = points - OLD.score, won = won - OLD.won, lost = lost - OLD.lost
        WHERE table_id = OLD.table_id AND number = OLD.declarer_seat;
    END
    """,
    """
    CREATE TRIGGER scoring_game_seat_total_update AFTER UPDATE OF table_id, declarer_seat, score, won, lost
    ON scoring_game
    WHEN OLD.table_id IS NOT NEW.table_id OR OLD.declarer_seat IS NOT NEW.declarer_seat
        OR OLD.score IS NOT NEW.score OR OLD.won IS NOT NEW.won OR OLD.lost IS NOT NEW.lost
    BEGIN
        UPDATE scoring_seattotal SET points = points - OLD.score, won = won - OLD.won, lost = lost - OLD.lost
        WHERE OLD.declarer_seat IS NOT NULL AND table_id = OLD.table_id AND number = OLD.declarer_seat;
        INSERT INTO scoring_seattotal (table_id, number, points, won, lost)
        SELECT NEW.table_id, NEW.declarer_seat, NEW.score, NEW.won, NEW.lost WHERE NEW.declarer_seat IS NOT NULL
        ON CONFLICT (table_id, number) DO UPDATE SET
            points = points + excluded.points, won = won + excluded.won, lost = lost + excluded.lost;
    END
    """,
]
SEAT_TOTALS_SQLITE_DOWN = [
    "DROP TRIGGER IF EXISTS scoring_game_seat_total_insert",
    "DROP TRIGGER IF EXISTS scoring_game_seat_total_delete",
    "DROP TRIGGER IF EXISTS scoring_game_seat_total_update",
]

SEAT_TOTALS_POSTGRES_UP = [
    """
    CREATE FUNCTION scoring_game_seat_total() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP <> 'INSERT' AND OLD.declarer_seat IS NOT NULL THEN
            UPDATE scoring_seattotal
            SET points = points - OLD.score, won = won - OLD.won::int, lost = lost - OLD.lost::int
            WHERE table_id = OLD.table_id AND number = OLD.declarer_seat;
        END IF;
        IF TG_OP <> 'DELETE' AND NEW.declarer_seat IS NOT NULL THEN
            INSERT INTO scoring_seattotal AS t (table_id, number, points, won, lost)
            VALUES (NEW.table_id, NEW.declarer_seat, NEW.score, NEW.won::int, NEW.lost::int)
            ON CONFLICT (table_id, number) DO UPDATE SET
                points = t.points + EXCLUDED.points, won = t.won + EXCLUDED.won, lost = t.lost + EXCLUDED.lost;
        END IF;
        RETURN NULL;
    END
    $$
    """,
    """
    CREATE TRIGGER scoring_game_seat_total_change AFTER INSERT OR DELETE ON scoring_game
    FOR EACH ROW EXECUTE FUNCTION scoring_game_seat_total()
    """,
    """
    CREATE TRIGGER scoring_game_seat_total_update AFTER UPDATE ON scoring_game
    FOR EACH ROW WHEN ((OLD.table_id, OLD.declarer_seat, OLD.score, OLD.won, OLD.lost)
        IS DISTINCT FROM (NEW.table_id, NEW.declarer_seat, NEW.score, NEW.won, NEW.lost))
    EXECUTE FUNCTION scoring_game_seat_total()
    """,
]
SEAT_TOTALS_POSTGRES_DOWN = [
    "DROP TRIGGER IF EXISTS scoring_game_seat_total_change ON scoring_game",
    "DROP TRIGGER IF EXISTS scoring_game_seat_total_update ON scoring_game",
    "DROP FUNCTION IF EXISTS scoring_game_seat_total()",
]

MARK = "scoring_resultsmark"

#: A sheet's tournament, from a row with a table_id.
VIA_TABLE = (
    "(SELECT s.tournament_id FROM tournaments_table t JOIN tournaments_series s ON s.id = t.series_id "
    "WHERE t.id = {row}.table_id)"
)
#: A series' tournament, from a row with a series_id.
VIA_SERIES = "(SELECT s.tournament_id FROM tournaments_series s WHERE s.id = {row}.series_id)"

#: (source table, what fires it, SELECT of (tournament id, scope) rows for the changed {row}).
#: "changes": insert, update and delete; "update of ...": updates naming those columns.
RESULTS_MARK_SOURCES = [
    ("scoring_game", "changes", f"SELECT {VIA_TABLE} AS tid, {{row}}.table_id AS scope"),
    ("referees_signoff", "changes", f"SELECT {VIA_TABLE} AS tid, {{row}}.table_id AS scope"),
    ("tournaments_series", "changes", "SELECT {row}.tournament_id AS tid, 0 AS scope"),
    ("tournaments_table", "changes", f"SELECT {VIA_SERIES} AS tid, 0 AS scope"),
    ("tournaments_seat", "changes", f"SELECT {VIA_SERIES} AS tid, 0 AS scope"),
    ("tournaments_team", "changes", "SELECT {row}.tournament_id AS tid, 0 AS scope"),
    ("tournaments_category", "changes", "SELECT {row}.tournament_id AS tid, 0 AS scope"),
    (
        "tournaments_registration",
        "changes of player_id, team_id, category_id, first_series, withdrawn_after_series, start_number",
        "SELECT {row}.tournament_id AS tid, 0 AS scope",
    ),
    ("tournaments_tournament", "update", "SELECT {row}.id AS tid, 0 AS scope"),
    (
        "tournaments_player",
        "update of name, club_id",
        "SELECT DISTINCT r.tournament_id AS tid, 0 AS scope FROM tournaments_registration r "
        "WHERE r.player_id = {row}.id",
    ),
    (
        "tournaments_club",
        "update of name",
        "SELECT DISTINCT r.tournament_id AS tid, 0 AS scope FROM tournaments_registration r "
        "JOIN tournaments_player p ON p.id = r.player_id WHERE p.club_id = {row}.id",
    ),
]


def _count(select: str, row: str, now: str, distinct: bool = False) -> str:
    """Add one to the counter of every (tournament, scope) the SELECT names for ``row``
    (``distinct``: a SELECT of many rows names each once, as ON CONFLICT requires, in
    one order, so two statements that lock several mark rows lock them alike: no deadlock)."""
    many = "ORDER BY x.tid, x.scope " if distinct else ""
    return (
        f"INSERT INTO {MARK} (tournament_id, scope, version, changed_at) "
        f"SELECT {'DISTINCT ' if distinct else ''}x.tid, x.scope, 1, {now} "
        f"FROM ({select.format(row=row)}) x WHERE x.tid IS NOT NULL {many}"
        f"ON CONFLICT (tournament_id, scope) DO UPDATE SET version = {MARK}.version + 1, "
        "changed_at = excluded.changed_at"
    )


def _columns(fires: str) -> str:
    return fires.partition(" of ")[2]


def results_mark_sqlite_up() -> list[str]:
    now = "strftime('%Y-%m-%d %H:%M:%f', 'now')"
    statements = []
    for table, fires, select in RESULTS_MARK_SOURCES:
        events = []
        if fires.startswith("changes"):
            events += [("insert", "INSERT", ["NEW"]), ("delete", "DELETE", ["OLD"])]
        columns = _columns(fires)
        events.append(("update", f"UPDATE OF {columns}" if columns else "UPDATE", ["OLD", "NEW"]))
        for name, event, rows in events:
            body = "".join(f"{_count(select, row, now)};\n" for row in rows)
            statements.append(f"CREATE TRIGGER {table}_results_mark_{name} AFTER {event} ON {table}\nBEGIN\n{body}END")
    statements.append(
        f"CREATE TRIGGER tournaments_tournament_results_mark_delete AFTER DELETE ON tournaments_tournament\n"
        f"BEGIN\nDELETE FROM {MARK} WHERE tournament_id = OLD.id;\nEND"
    )
    return statements


def results_mark_sqlite_down() -> list[str]:
    names = [
        f"{table}_results_mark_{name}"
        for table, fires, _select in RESULTS_MARK_SOURCES
        for name in (["insert", "delete", "update"] if fires.startswith("changes") else ["update"])
    ]
    return [f"DROP TRIGGER IF EXISTS {name}" for name in [*names, "tournaments_tournament_results_mark_delete"]]


def results_mark_postgres_up() -> list[str]:
    statements = []
    for table, fires, select in RESULTS_MARK_SOURCES:
        columns = _columns(fires)
        update = f"UPDATE OF {columns}" if columns else "UPDATE"
        events = f"INSERT OR DELETE OR {update}" if fires.startswith("changes") else update
        statements.append(
            f"CREATE FUNCTION {table}_results_mark() RETURNS trigger LANGUAGE plpgsql AS $$\n"
            "BEGIN\n"
            f"    IF TG_OP <> 'INSERT' THEN {_count(select, 'OLD', 'now()')}; END IF;\n"
            f"    IF TG_OP <> 'DELETE' THEN {_count(select, 'NEW', 'now()')}; END IF;\n"
            "    RETURN NULL;\n"
            "END\n$$"
        )
        statements.append(
            f"CREATE TRIGGER {table}_results_mark AFTER {events} ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION {table}_results_mark()"
        )
    statements.append(
        "CREATE FUNCTION tournaments_tournament_results_mark_delete() RETURNS trigger LANGUAGE plpgsql AS $$\n"
        f"BEGIN\n    DELETE FROM {MARK} WHERE tournament_id = OLD.id;\n    RETURN NULL;\nEND\n$$"
    )
    statements.append(
        "CREATE TRIGGER tournaments_tournament_results_mark_delete AFTER DELETE ON tournaments_tournament "
        "FOR EACH ROW EXECUTE FUNCTION tournaments_tournament_results_mark_delete()"
    )
    return statements


#: PostgreSQL's per-statement counting (migration 0013): the transition table's name.
CHANGED_ROWS = "changed_rows"
#: The per-statement triggers of 0013, by event: (event, transition table, name suffix).
PER_STATEMENT = (("INSERT", "NEW", "inserted"), ("DELETE", "OLD", "deleted"))


def _changes() -> list[tuple[str, str, str]]:
    """The sources counted on insert and delete too (every row's SELECT has no FROM of its own)."""
    return [(table, fires, select) for table, fires, select in RESULTS_MARK_SOURCES if fires.startswith("changes")]


def _row_level(table: str, events: str) -> str:
    return (
        f"CREATE TRIGGER {table}_results_mark AFTER {events} ON {table} "
        f"FOR EACH ROW EXECUTE FUNCTION {table}_results_mark()"
    )


def results_mark_per_statement_postgres_up() -> list[str]:
    """Inserts and deletes counted once per statement on PostgreSQL, not once per row.

    A draw writes its 9,000 seats in one statement; counted per row, PostgreSQL updated the
    tournament's one mark row 9,000 times in one transaction, each update a new version
    of the row that the next had to find past the others: the draw took 16.5 s instead
    of 0.6 s (2.1 s instead of 0.35 at 3,000 players). A statement-level trigger sees
    the statement's rows at once (a transition table) and counts each (tournament,
    scope) once. Updates stay per row: PostgreSQL allows no transition table on a
    trigger with a column list. So do many one-row statements in one transaction: each
    updates the mark row again, as slowly (3,000 in one transaction 1.3 s, 9,000 11 s):
    write many rows in one statement, as the draw and the rehearsal's registrations do,
    and update few rows at a time. SQLite updates the row in place and keeps its per-row
    triggers.
    """
    statements = []
    for table, fires, select in _changes():
        columns = _columns(fires)
        statements.append(f"DROP TRIGGER {table}_results_mark ON {table}")
        statements.append(_row_level(table, f"UPDATE OF {columns}" if columns else "UPDATE"))
        rows = select + f" FROM {CHANGED_ROWS} {{row}}"
        for event, transition, suffix in PER_STATEMENT:
            name = f"{table}_results_mark_{suffix}"
            statements.append(
                f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$\n"
                "BEGIN\n"
                f"    {_count(rows, 'r', 'now()', distinct=True)};\n"
                "    RETURN NULL;\n"
                "END\n$$"
            )
            statements.append(
                f"CREATE TRIGGER {name} AFTER {event} ON {table} REFERENCING {transition} TABLE AS {CHANGED_ROWS} "
                f"FOR EACH STATEMENT EXECUTE FUNCTION {name}()"
            )
    return statements


def results_mark_per_statement_postgres_down() -> list[str]:
    statements = []
    for table, fires, _select in _changes():
        for _event, _transition, suffix in PER_STATEMENT:
            statements.append(f"DROP TRIGGER IF EXISTS {table}_results_mark_{suffix} ON {table}")
            statements.append(f"DROP FUNCTION IF EXISTS {table}_results_mark_{suffix}()")
        columns = _columns(fires)
        statements.append(f"DROP TRIGGER IF EXISTS {table}_results_mark ON {table}")
        statements.append(_row_level(table, f"INSERT OR DELETE OR {f'UPDATE OF {columns}' if columns else 'UPDATE'}"))
    return statements


def results_mark_postgres_down() -> list[str]:
    statements = []
    for table, _fires, _select in RESULTS_MARK_SOURCES:
        statements.append(f"DROP TRIGGER IF EXISTS {table}_results_mark ON {table}")
        statements.append(f"DROP FUNCTION IF EXISTS {table}_results_mark()")
    statements.append("DROP TRIGGER IF EXISTS tournaments_tournament_results_mark_delete ON tournaments_tournament")
    statements.append("DROP FUNCTION IF EXISTS tournaments_tournament_results_mark_delete()")
    return statements


def run(schema_editor, statements: dict[str, Callable[[], list[str]]], what: str) -> None:
    """Run the statements of the connection's dialect (``{"sqlite": ..., "postgresql": ...}``)."""
    vendor = schema_editor.connection.vendor
    if vendor not in statements:
        raise NotImplementedError(f"{what}: no triggers written for {vendor}; SQLite and PostgreSQL are supported")
    for statement in statements[vendor]():
        schema_editor.execute(statement, params=None)


def create_seat_totals(schema_editor) -> None:
    run(
        schema_editor,
        {"sqlite": lambda: SEAT_TOTALS_SQLITE_UP, "postgresql": lambda: SEAT_TOTALS_POSTGRES_UP},
        "seat totals",
    )


def drop_seat_totals(schema_editor) -> None:
    run(
        schema_editor,
        {"sqlite": lambda: SEAT_TOTALS_SQLITE_DOWN, "postgresql": lambda: SEAT_TOTALS_POSTGRES_DOWN},
        "seat totals",
    )


def create_results_mark(schema_editor) -> None:
    run(schema_editor, {"sqlite": results_mark_sqlite_up, "postgresql": results_mark_postgres_up}, "results mark")


def drop_results_mark(schema_editor) -> None:
    run(schema_editor, {"sqlite": results_mark_sqlite_down, "postgresql": results_mark_postgres_down}, "results mark")


def count_per_statement(schema_editor) -> None:
    run(schema_editor, {"sqlite": list, "postgresql": results_mark_per_statement_postgres_up}, "results mark")


def count_per_row(schema_editor) -> None:
    run(schema_editor, {"sqlite": list, "postgresql": results_mark_per_statement_postgres_down}, "results mark")


def recreate_on_sqlite(schema_editor) -> None:
    """The results mark's triggers again after a table rebuild on SQLite (PostgreSQL's
    ALTER TABLE keeps triggers: nothing to do there)."""
    if schema_editor.connection.vendor != "sqlite":
        return
    for statement in [*results_mark_sqlite_down(), *results_mark_sqlite_up()]:
        schema_editor.execute(statement, params=None)
