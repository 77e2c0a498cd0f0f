"""Suite-wide test settings."""

import os

import pytest
from hypothesis import HealthCheck, settings

# No deadlines: CI machines are shared and a slow example is not a wrong one.
# Speed is proven by `manage.py bench`, never by timed tests.
# Derandomized: the same examples on every run, so CI never fails by luck; run
# HYPOTHESIS_PROFILE=explore to search with fresh random examples.
settings.register_profile(
    "default", deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow], database=None
)
settings.register_profile("explore", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)
# .ci/run's second database: 20 of the same derandomized examples (every example ran on
# SQLite just before; here they check the SQL PostgreSQL answers, within CI's time).
settings.register_profile("second-database", parent=settings.get_profile("default"), max_examples=20)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(scope="session", autouse=True)
def _servers_collect_static_apart(tmp_path_factory):
    """The office processes a test starts (serve, the load test's server) run collectstatic:
    into a folder of this pytest process's own, never into the project's staticfiles, which
    another worker's WhiteNoise may be reading at that moment (a file deleted and rewritten
    under it). This process's settings are loaded already and keep their STATIC_ROOT."""
    os.environ["STATIC_ROOT"] = str(tmp_path_factory.mktemp("staticfiles"))


#: The big parametrisations, by test: make test-fast leaves them out (marker ``heavy``),
#: make test and CI run them. Marked here so their modules stay as they are.
HEAVY = {
    "tests/test_access_matrix.py::test_access",
    "tests/test_access_matrix.py::test_a_table_link_never_reads_or_writes_another_table",
    "tests/test_access_matrix.py::test_every_form_refuses_a_post_without_the_csrf_token",
    "tests/tablelink/test_entry_rendering.py",
}


#: Long checks a developer does not need between edits, by test or module: make test-fast
#: leaves them out (marker ``slow``, as the engine's exhaustive grid), make test and both of
#: CI's databases run them. The migrations replayed from an old schema, the bench's and
#: load test's commands end to end, a serving process killed and restored, a publication
#: between two offices, the hostile publications' memory and CPU in processes of their own,
#: the power cuts of an evening on the simulated disk.
SLOW = {
    "tests/scoring/test_migrations.py",
    "tests/leagues/test_migrations.py",
    "tests/signoff/test_migrations.py",
    "tests/office/test_bench_command.py",
    "tests/office/test_loadtest_command.py",
    "tests/office/test_league_bench.py",
    "tests/office/test_backup_after_kill.py",
    "tests/office/test_start_after_cut.py",
    "tests/leagues/test_publication_e2e.py",
    "tests/fuzz/test_publication_fuzz.py::test_a_hostile_body_costs_at_most_100_mb_and_2_s",
    "tests/test_setup.py::test_a_wheel_of_a_later_commit_upgrades_the_installed_office_and_carries_the_help",
    "tests/office/test_serve_banner.py::test_a_real_start_with_its_output_in_a_cp1252_file_serves_and_the_file_has_the_password",
    "tests/perf/powercut/test_powercut_command.py::test_two_cuts_cost_no_acknowledged_deal_no_start_and_no_key",
    "tests/perf/quota/test_commands.py::test_a_short_load_test_with_the_server_in_one_cpu_reports_the_quota_and_leaves_no_group",
}


#: Tests that answer the same on every database, by test or module: .ci/run's second database
#: (PostgreSQL) leaves them out (marker ``agnostic``), the first (SQLite) runs them. Each
#: either touches no database (static checks, the engine's command line, settings) or runs
#: its office in a process of its own on a SQLite file whatever the suite's database is
#: (the load test and bench scratch databases, the publication memory children).
AGNOSTIC = {
    "tests/test_layers.py",
    "tests/test_one_valuing.py",
    "tests/test_hooks_map.py",
    "tests/scoring/test_evaluate_command.py",
    "tests/config/test_security.py",
    "tests/office/test_loadtest_command.py",
    "tests/office/test_bench_command.py",
    "tests/office/test_league_bench.py",
    "tests/office/test_workers.py",
    "tests/perf/test_client.py",
    "tests/perf/test_hall_clients.py",
    "tests/fuzz/test_publication_fuzz.py::test_a_hostile_body_costs_at_most_100_mb_and_2_s",
    "tests/test_setup.py",
    "tests/office/test_upgrades.py::test_the_entry_point_refuses_with_one_line_and_exits_non_zero",
    "tests/office/test_serve_banner.py::test_a_real_start_with_its_output_in_a_cp1252_file_serves_and_the_file_has_the_password",
    "tests/perf/powercut/test_disk.py",
    "tests/perf/powercut/test_mount.py",
    "tests/perf/powercut/test_office.py",
    "tests/perf/powercut/test_phones.py",
    "tests/perf/powercut/test_run.py",
    "tests/perf/powercut/test_powercut_command.py",
    "tests/perf/quota/test_cgroups.py",
    "tests/perf/quota/test_commands.py",
    "tests/test_container.py",  # its office reaches the PostgreSQL server itself, the rest reads files
    "tests/printing/test_qr.py",
    "tests/perf/quota/test_postgres.py",  # reaches the PostgreSQL server itself, whatever DATABASE_URL says
}


def _listed(item, names: set[str]) -> bool:
    path, _, name = item.nodeid.partition("::")
    return path in names or f"{path}::{name.partition('[')[0]}" in names


def pytest_collection_modifyitems(config, items):
    for item in items:
        if _listed(item, HEAVY):
            item.add_marker(pytest.mark.heavy)
        if _listed(item, SLOW):
            item.add_marker(pytest.mark.slow)
        if _listed(item, AGNOSTIC):
            item.add_marker(pytest.mark.agnostic)


@pytest.fixture(scope="session", autouse=True)
def _standings_cache_apart(tmp_path_factory):
    """The standings cache (settings.CACHES, files) in a folder of this pytest process's
    own: never the project's db.sqlite3.cache, which other xdist workers and a developer's
    running server share (an entry of one would be read by another). The office processes
    a test starts get it too (CACHE_DIR), unless the test gives them their own."""
    from django.conf import settings as django_settings
    from django.test.utils import override_settings

    location = tmp_path_factory.mktemp("standings-cache")
    os.environ["CACHE_DIR"] = str(location)
    cache = {**django_settings.CACHES["default"], "LOCATION": str(location)}
    with override_settings(CACHE_DIR=location, CACHES={"default": cache}):
        yield location


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    """Logins in tests need not resist offline cracking: a fast hasher keeps the
    throttle and access tests (dozens of logins) quick. Production keeps PBKDF2."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def director(client):
    """A logged-in director (of the tournaments a test names him director of)."""
    from tests import factories

    user = factories.user("director")
    client.force_login(user)
    return user


@pytest.fixture(autouse=True)
def _office_url_of_the_request(settings):
    """Links on the address the test's request used (http://testserver/...), not on
    the hall address this machine's interfaces happen to give (config.hall)."""
    settings.OFFICE_URL = ""


@pytest.fixture(autouse=True)
def _standings_follow_every_change(settings):
    """Public standings show every change at once in tests (the hall lets them lag for a
    few seconds: standings.cache.public_mark, tested on its own in tests/standings/test_cache.py)."""
    settings.STANDINGS_SETTLE_SECONDS = 0


@pytest.fixture(autouse=True)
def _rankings_computed_at_once(settings):
    """A ranking is computed in the caller's thread and transaction in tests, so a test that
    adds a tournament reads its lines at once (the office computes in the background:
    rankings.background, tested on its own in tests/rankings/test_background.py)."""
    settings.RANKINGS_COMPUTE = "at_once"


@pytest.fixture(autouse=True)
def _short_hall_checks(settings):
    """A table link opened before play checks its connection by itself (static/js/hall-check.js):
    5 round trips 50 ms apart in tests, not 20 over 10 s that keep a page from ever being
    "networkidle" meanwhile. tests/browser/test_hall_check.py sets its own."""
    settings.HALL_CHECK_PINGS, settings.HALL_CHECK_INTERVAL_MS = 5, 50


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """Every test starts in English: one that speaks German (a page asked for in German
    activates it for the thread) must not leave it to the next test, which would then
    pass or fail by the order the suite happens to run in."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(scope="session")
def scratch_template(tmp_path_factory, django_db_setup, django_db_blocker):
    """The bench's and load test's scratch SQLite databases start as a copy of this worker's
    test database, migrated already (perf.scratch.TEMPLATE_ENV), instead of migrating anew.
    Only on SQLite: on PostgreSQL these tests are agnostic and do not run."""
    import sqlite3

    from django.db import connection

    from perf.scratch import TEMPLATE_ENV

    if connection.vendor != "sqlite":
        yield None
        return
    path = tmp_path_factory.mktemp("scratch-template") / "migrated.sqlite3"
    with django_db_blocker.unblock():
        connection.ensure_connection()
        target = sqlite3.connect(path)
        connection.connection.backup(target)
        target.close()
    os.environ[TEMPLATE_ENV] = str(path)
    yield path
    os.environ.pop(TEMPLATE_ENV, None)


@pytest.fixture
def latest_schema_after():
    """A migration test that moves the schema back and fails midway leaves it on the latest
    again: the later tests of its worker would otherwise fail on an old schema too."""
    yield
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    if executor.migration_plan(latest):
        executor.migrate(latest)
