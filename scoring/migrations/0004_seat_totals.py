"""Seat totals, kept by database triggers on the games (see scoring.models.SeatTotal).

The triggers add a game's score, won and lost to its declarer's seat row when the game
is inserted, take them away when it is deleted, and both when it is updated, in the
same transaction as the game. SQLite and PostgreSQL each get their own dialect; the
existing games are summed into the new table once.
"""

import django.db.models.deletion
from django.db import migrations, models

SQLITE_UP = [
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
SQLITE_DOWN = [
    "DROP TRIGGER IF EXISTS scoring_game_seat_total_insert",
    "DROP TRIGGER IF EXISTS scoring_game_seat_total_delete",
    "DROP TRIGGER IF EXISTS scoring_game_seat_total_update",
]

POSTGRES_UP = [
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
POSTGRES_DOWN = [
    "DROP TRIGGER IF EXISTS scoring_game_seat_total_change ON scoring_game",
    "DROP TRIGGER IF EXISTS scoring_game_seat_total_update ON scoring_game",
    "DROP FUNCTION IF EXISTS scoring_game_seat_total()",
]


def _run(schema_editor, statements: dict) -> None:
    vendor = schema_editor.connection.vendor
    if vendor not in statements:
        raise NotImplementedError(
            f"seat totals: no triggers written for {vendor}; SQLite and PostgreSQL are supported"
        )
    for statement in statements[vendor]:
        schema_editor.execute(statement)


def create_triggers(apps, schema_editor) -> None:
    _run(schema_editor, {"sqlite": SQLITE_UP, "postgresql": POSTGRES_UP})


def sum_stored_games(apps, schema_editor) -> None:
    """The games already stored, summed once; from now on the triggers keep the sums."""
    Game = apps.get_model("scoring", "Game")
    SeatTotal = apps.get_model("scoring", "SeatTotal")
    totals = {}
    for table_id, seat, score, won, lost in (
        Game.objects.filter(declarer_seat__isnull=False)
        .values_list("table_id", "declarer_seat", "score", "won", "lost")
        .iterator(chunk_size=5000)
    ):
        entry = totals.setdefault((table_id, seat), [0, 0, 0])
        entry[0] += score
        entry[1] += int(won)
        entry[2] += int(lost)
    SeatTotal.objects.bulk_create(
        [SeatTotal(table_id=t, number=n, points=p, won=w, lost=x) for (t, n), (p, w, x) in totals.items()],
        batch_size=1000,
    )


def drop_triggers(apps, schema_editor) -> None:
    _run(schema_editor, {"sqlite": SQLITE_DOWN, "postgresql": POSTGRES_DOWN})


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0003_game_irregularity_voided"),
        ("tournaments", "0002_fee_rules"),
    ]

    operations = [
        migrations.CreateModel(
            name="SeatTotal",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("number", models.PositiveSmallIntegerField(verbose_name="seat")),
                ("points", models.IntegerField(default=0, verbose_name="game points")),
                ("won", models.IntegerField(default=0, verbose_name="won")),
                ("lost", models.IntegerField(default=0, verbose_name="lost")),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="seat_totals", to="tournaments.table"
                    ),
                ),
            ],
            options={
                "verbose_name": "seat total",
                "verbose_name_plural": "seat totals",
                "constraints": [models.UniqueConstraint(fields=("table", "number"), name="seat_total_once_per_seat")],
            },
        ),
        migrations.RunPython(create_triggers, drop_triggers),
        migrations.RunPython(sum_stored_games, migrations.RunPython.noop),
    ]
