"""The results mark (scoring.models.ResultsMark), kept by database triggers.

Every change of what a tournament's standings and projector page show adds one to a
counter: a sheet's changes (games, sign-off) to the sheet's row, the rest (series,
tables, seats, registrations, teams, categories, the tournament itself, a player's
name or club, a club's name) to the tournament's row (scope 0). Triggers, like the seat
totals' (0004), so no way of writing (views, imports, the admin, raw SQL, the load
test) can forget to count. SQLite and PostgreSQL each get their own dialect; the SQL
is written out here, not imported, so this migration stays what it was.
"""

import django.db.models.deletion
from django.db import migrations, models

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
SOURCES = [
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


def _count(select: str, row: str, now: str) -> str:
    """Add one to the counter of every (tournament, scope) the SELECT names for ``row``."""
    return (
        f"INSERT INTO {MARK} (tournament_id, scope, version, changed_at) "
        f"SELECT x.tid, x.scope, 1, {now} FROM ({select.format(row=row)}) x WHERE x.tid IS NOT NULL "
        f"ON CONFLICT (tournament_id, scope) DO UPDATE SET version = {MARK}.version + 1, "
        "changed_at = excluded.changed_at"
    )


def _columns(fires: str) -> str:
    return fires.partition(" of ")[2]


def sqlite_up() -> list[str]:
    now = "strftime('%Y-%m-%d %H:%M:%f', 'now')"
    statements = []
    for table, fires, select in SOURCES:
        events = []
        if fires.startswith("changes"):
            events += [("insert", "INSERT", ["NEW"]), ("delete", "DELETE", ["OLD"])]
        columns = _columns(fires)
        events.append(("update", f"UPDATE OF {columns}" if columns else "UPDATE", ["OLD", "NEW"]))
        for name, event, rows in events:
            body = "".join(f"{_count(select, row, now)};\n" for row in rows)
            statements.append(
                f"CREATE TRIGGER {table}_results_mark_{name} AFTER {event} ON {table}\nBEGIN\n{body}END"
            )
    statements.append(
        f"CREATE TRIGGER tournaments_tournament_results_mark_delete AFTER DELETE ON tournaments_tournament\n"
        f"BEGIN\nDELETE FROM {MARK} WHERE tournament_id = OLD.id;\nEND"
    )
    return statements


def sqlite_down() -> list[str]:
    names = [
        f"{table}_results_mark_{name}"
        for table, fires, _select in SOURCES
        for name in (["insert", "delete", "update"] if fires.startswith("changes") else ["update"])
    ]
    return [f"DROP TRIGGER IF EXISTS {name}" for name in [*names, "tournaments_tournament_results_mark_delete"]]


def postgres_up() -> list[str]:
    statements = []
    for table, fires, select in SOURCES:
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


def postgres_down() -> list[str]:
    statements = []
    for table, _fires, _select in SOURCES:
        statements.append(f"DROP TRIGGER IF EXISTS {table}_results_mark ON {table}")
        statements.append(f"DROP FUNCTION IF EXISTS {table}_results_mark()")
    statements.append("DROP TRIGGER IF EXISTS tournaments_tournament_results_mark_delete ON tournaments_tournament")
    statements.append("DROP FUNCTION IF EXISTS tournaments_tournament_results_mark_delete()")
    return statements


def _run(schema_editor, statements: dict) -> None:
    vendor = schema_editor.connection.vendor
    if vendor not in statements:
        raise NotImplementedError(f"results mark: no triggers written for {vendor}; SQLite and PostgreSQL are supported")
    for statement in statements[vendor]():
        schema_editor.execute(statement, params=None)


def create_triggers(apps, schema_editor) -> None:
    _run(schema_editor, {"sqlite": sqlite_up, "postgresql": postgres_up})


def drop_triggers(apps, schema_editor) -> None:
    _run(schema_editor, {"sqlite": sqlite_down, "postgresql": postgres_down})


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0007_lists_accepted"),
        ("tournaments", "0009_names_must_be_visible"),
    ]

    operations = [
        migrations.CreateModel(
            name="ResultsMark",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("scope", models.BigIntegerField(default=0)),
                ("version", models.BigIntegerField(default=1)),
                ("changed_at", models.DateTimeField()),
                (
                    "tournament",
                    models.ForeignKey(
                        db_constraint=False,
                        db_index=False,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="tournaments.tournament",
                    ),
                ),
            ],
            options={
                "indexes": [models.Index(fields=["tournament", "version", "changed_at"], name="results_mark_sum")],
                "constraints": [
                    models.UniqueConstraint(fields=("tournament", "scope"), name="results_mark_once_per_scope")
                ],
            },
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
