"""The office's shape: apps that import only downwards, no module cycles, short modules,
apps of about 25 modules, each rendering its own templates.

The order is :data:`ORDER` (the docs' "Layout" page says what each app holds and where a
new feature goes): the engine ``skat`` (the standard library only), ``core``, the Django
apps by noun in the order ``settings.INSTALLED_APPS`` lists them, then the composition:
``config`` (the settings, the root URLs, the help), ``office`` (the program a director
runs), ``perf.quota`` (the CPU quota's cgroup), ``perf`` (the bench and the load test,
which measure the office) and ``perf.powercut`` (the power cuts on a simulated disk, which
use perf's client).

An app may sit inside another's folder (``leagues.seasons`` in ``leagues/``): a module
belongs to the app whose dotted name is the longest prefix of its own, so
``leagues.seasons.services`` is ``leagues.seasons``'s and ``leagues.results`` is
``leagues``'s. A folder holds apps of neighbouring layers only, never apps both below and
above another top-level package's.

Every import statement counts, also one inside a function: a lazy import is still a
dependency. A lower app that must show something of a higher one defines a hook
(``tournaments.hooks``, ``scoring.hooks``, ``referees.hooks``; the "Hooks" page maps
them) that the higher app fills in its AppConfig.
"""

from __future__ import annotations

import ast
import itertools
import re
import sys
from pathlib import Path

import pytest
from django.apps import apps

ROOT = Path(__file__).resolve().parent.parent
#: Composition, on top and in this order: config (settings, root URLs), office (serve, the
#: CLI, the demo, backups; it runs on config), perf.quota (the CPU quota's cgroup; it
#: knows nothing of the office), perf (bench and load test; they run the office) and
#: perf.powercut (the power cuts; it uses perf's client). The last four are the last apps
#: of settings.INSTALLED_APPS.
TOP = ("config", "office", "perf.quota", "perf", "perf.powercut")


def office_apps(configs) -> list[str]:
    """The office's apps among Django's app configs, by dotted name, in their order: those
    whose code is this checkout's. Read from the configs, not the INSTALLED_APPS strings, so
    an app installed by its AppConfig ("standings.apps.StandingsConfig") is still its app
    and not left out of every check here."""
    return [
        config.name
        for config in configs
        if Path(config.path) == ROOT / config.name.replace(".", "/") and config.name not in TOP
    ]


#: The office's apps by dotted name, lowest first: each imports only those before it.
#: Below the Django apps the engine and the shared helpers; the apps in the order
#: settings.INSTALLED_APPS lists them, the one table of that order.
ORDER = ("skat", "core", *office_apps(apps.get_app_configs()), *TOP)
#: The top-level folders that hold the office's code.
PACKAGES = tuple(dict.fromkeys(app.split(".")[0] for app in ORDER))
#: The engine: pure Python (the standard library and each other only).
ENGINE = "skat"
MAX_LINES = 400
#: "About 25" modules to an app (package markers and migrations not counted): past that,
#: the app holds more than one noun.
MAX_MODULES = 26


def app_of(module: str) -> str | None:
    """The app ``module`` belongs to: the longest dotted name in :data:`ORDER` it lies in."""
    while module and module not in ORDER:
        module = module.rpartition(".")[0]
    return module or None


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the office's packages by dotted name (migrations are history, not code)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" in path.parts or path.parts[-3:-1] == ("skat", "tests"):
                continue
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imported_names(module: str, source: str, *, is_package: bool) -> set[str]:
    """The dotted names an import statement of ``source`` may mean (absolute, relative resolved)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                if not is_package:
                    base = base[:-1]
                base = base[: len(base) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            names.add(prefix)
            names.update(f"{prefix}.{alias.name}" for alias in node.names)
    return names


def resolve(name: str, modules) -> str | None:
    """The office module ``name`` is (or lies in), or None for a library."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    graph = {}
    for module, path in modules.items():
        names = imported_names(module, path.read_text(encoding="utf-8"), is_package=path.name == "__init__.py")
        graph[module] = {m for m in (resolve(n, modules) for n in names) if m and m != module}
    return graph


def layer(module: str) -> int:
    app = app_of(module)
    return ORDER.index(app) + 1 if app else len(ORDER) + 1


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{module} (layer {layer(module)}) imports {dep} (layer {layer(dep)})"
        for module, deps in graph.items()
        for dep in deps
        if layer(dep) > layer(module)
    )


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def engine_impurities(modules: dict[str, Path]) -> list[str]:
    """Imports of the engine that are neither the standard library nor the engine."""
    bad = []
    for module in sorted(m for m in modules if m.split(".")[0] == ENGINE):
        path = modules[module]
        for name in sorted(imported_names(module, path.read_text(encoding="utf-8"), is_package=False)):
            top = name.split(".")[0]
            if top in sys.stdlib_module_names or top == "__future__":
                continue
            if name.split(".")[0] == ENGINE:
                continue
            bad.append(f"{module} imports {name}")
    return bad


@pytest.fixture(scope="module")
def modules():
    return module_files()


@pytest.fixture(scope="module")
def graph(modules):
    return import_graph(modules)


def test_no_layer_imports_a_layer_above_it(graph):
    assert upward_imports(graph) == []


def test_no_module_cycles(graph):
    assert cycles(graph) == []


def test_the_engine_is_pure_python(modules):
    assert {"skat.rules", "skat.rating", "skat.sheet", "skat.draw", "skat.cli"} <= modules.keys()
    assert engine_impurities(modules) == []


def test_no_module_is_over_400_lines(modules):
    long = {m: n for m, p in modules.items() if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_no_app_is_over_about_25_modules(modules):
    counts: dict[str, int] = {}
    for module, path in modules.items():
        if path.name != "__init__.py":
            counts[app_of(module)] = counts.get(app_of(module), 0) + 1
    assert {app: n for app, n in counts.items() if n > MAX_MODULES} == {}
    assert counts["scoring"] > 5 and counts["leagues.seasons"] > 5  # the count sees the apps, nested too
    assert counts["leagues"] < sum(n for app, n in counts.items() if app.startswith("leagues"))


def interleaved_folders(order: tuple[str, ...]) -> list[str]:
    """Folders holding apps both below and above an app of another folder."""
    found = []
    for folder in dict.fromkeys(app.split(".")[0] for app in order):
        places = [i for i, app in enumerate(order) if app.split(".")[0] == folder]
        between = {order[i].split(".")[0] for i in range(places[0], places[-1] + 1)} - {folder}
        found.extend(f"{folder}/ holds apps below and above {other}" for other in sorted(between))
    return found


def test_a_folder_holds_apps_of_neighbouring_layers_only():
    assert {"leagues", "leagues.seasons", "leagues.packages", "leagues.office"} <= set(ORDER)
    assert interleaved_folders(ORDER) == []


def test_a_folder_around_another_package_is_found():
    assert interleaved_folders(("core", "leagues", "rehearsal", "leagues.office")) == [
        "leagues/ holds apps below and above rehearsal"
    ]
    assert interleaved_folders(("core", "leagues", "leagues.office", "rehearsal")) == []


#: A row of the "Layout" page's table: "| 18 | `leagues/seasons/` | ...".
LAYOUT_ROW = re.compile(r"^\| (\d+) \| `([a-z_/]+)/` \|", re.MULTILINE)


def layout_order(page: str) -> list[str]:
    """The apps the "Layout" page's table lists, by dotted name, in its numbered order."""
    rows = sorted((int(number), folder.replace("/", ".")) for number, folder in LAYOUT_ROW.findall(page))
    return [app for _number, app in rows]


def test_the_layout_page_lists_the_layers_in_this_order():
    """The page says what each layer holds and that this test keeps its order: an app added
    to INSTALLED_APPS (a nested one too) in another place than the page's fails here."""
    page = (ROOT / "docs" / "pages" / "developers" / "layout.md").read_text(encoding="utf-8")
    assert layout_order(page) == list(ORDER)


def test_a_layout_page_out_of_order_is_found():
    page = "| 1 | `skat/` | engine |\n| 3 | `leagues/office/` | x |\n| 2 | `leagues/` | y |\n"
    assert layout_order(page) == ["skat", "leagues", "leagues.office"]


def test_the_composition_is_the_last_of_the_installed_apps():
    ours = [config.name for config in apps.get_app_configs() if config.name in ORDER]
    assert ours[-4:] == ["office", "perf.quota", "perf", "perf.powercut"] and ORDER[-5:] == TOP


def test_an_app_installed_by_its_app_config_is_an_app():
    from types import SimpleNamespace

    configs = [
        SimpleNamespace(name="django.contrib.admin", path="/usr/lib/python3/django/contrib/admin"),
        SimpleNamespace(name="standings", path=str(ROOT / "standings")),  # "standings.apps.StandingsConfig"
        SimpleNamespace(name="leagues.office", path=str(ROOT / "leagues" / "office")),
        SimpleNamespace(name="perf", path=str(ROOT / "perf")),
    ]
    assert office_apps(configs) == ["standings", "leagues.office"]


# The checks themselves, on made-up modules: each finds what it is for.


def test_the_scan_resolves_relative_and_lazy_imports():
    source = "from . import lists\nfrom .models import Game\ndef f():\n    from referees.models import Correction"
    names = imported_names("scoring.entry", source, is_package=False)
    modules = {"scoring.entry", "scoring.lists", "scoring.models", "referees.models"}
    assert {resolve(n, modules) for n in names} - {None} == {"scoring.lists", "scoring.models", "referees.models"}
    package_names = imported_names("printing.documents", "from .cards import x\n", is_package=True)
    assert "printing.documents.cards" in package_names


def test_an_upward_import_is_found():
    graph = {"tournaments.views": {"standings.places", "skat.rules"}, "standings.places": set()}
    low, high = layer("tournaments.views"), layer("standings.places")
    assert upward_imports(graph) == [f"tournaments.views (layer {low}) imports standings.places (layer {high})"]
    assert upward_imports({"scoring.models": {"referees.models"}, "referees.models": set()}) != []
    assert upward_imports({"referees.views": {"scoring.models", "tournaments.models"}}) == []
    assert upward_imports({"referees.corrections": {"leagues.checks"}}) != []
    assert upward_imports({"leagues.views": {"referees.corrections", "skat.league"}}) == []
    assert upward_imports({"leagues.views": {"office.demo"}}) != []
    # Nested apps: the league's own apps sit above it, in their order.
    assert upward_imports({"leagues.results": {"leagues.seasons.services"}}) != []
    assert upward_imports({"leagues.seasons.services": {"leagues.results"}}) == []
    assert upward_imports({"leagues.packages.imports": {"leagues.office.report"}}) != []
    # The composition: office runs on config, perf measures office; never the other way.
    assert upward_imports({"office.serve": {"perf.bench"}}) != []
    assert upward_imports({"config.urls": {"office.serve"}}) != []
    assert upward_imports({"perf.bench": {"office.demo", "config.heap"}}) == []


def test_a_cycle_is_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


# The ORM is an import too: a lower app that filters on a higher app's reverse relation
# (``corrections__isnull``) depends on it as surely as an import statement.


def reverse_relation_names() -> dict[str, tuple[int, set[str]]]:
    """{name a lower layer's query could use: (the layer that owns it, the modules' layers it may not appear in)}."""
    from django.apps import apps

    names: dict[str, int] = {}
    for model in apps.get_models():
        owner = layer(model.__module__)
        if model.__module__.split(".")[0] not in PACKAGES:
            continue
        for field in model._meta.get_fields():
            if not ((field.is_relation and field.many_to_one) or field.one_to_one) or field.auto_created:
                continue
            target = field.related_model
            if target is None or layer(target.__module__) >= owner:
                continue
            for name in {field.related_query_name(), field.remote_field.get_accessor_name()} - {None, "+"}:
                names[name] = max(names.get(name, 0), owner)
    return names


def upward_relations(modules: dict[str, Path], names: dict[str, int]) -> list[str]:
    import io
    import tokenize

    found = []
    for module, path in sorted(modules.items()):
        here = layer(module)
        if here == 1:
            continue  # the engine has no ORM (its JSON keys, e.g. "games", are its own)
        tokens = list(tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline))
        for before, token in itertools.pairwise(tokens):
            if token.type == tokenize.STRING:  # "games", "games__score" (not prose that says games)
                text = token.string.strip("\"'")
                words = {w.split("__")[0] for w in re.findall(r"\b\w+__\w+", text)}
                words |= {text} if text.isidentifier() else set()
            elif token.type == tokenize.NAME and before.string == ".":
                words = {token.string}
            elif token.type == tokenize.NAME and "__" in token.string:  # keyword arguments: games__isnull=...
                words = {token.string.split("__")[0]}
            else:
                continue
            for word in words:
                if names.get(word, 0) > here:
                    found.append(f"{module}:{token.start[0]} uses {word!r} of layer {names[word]}")
    return found


@pytest.mark.django_db
def test_no_layer_queries_a_relation_of_a_layer_above_it(modules):
    names = reverse_relation_names()
    assert {"corrections", "disputes", "games", "signoff"} <= names.keys()
    assert upward_relations(modules, names) == []


def test_a_query_on_a_relation_above_is_found(tmp_path):
    source = tmp_path / "lists.py"
    source.write_text('q = Game.objects.filter(corrections__isnull=True)\nt.games.count()\nx(disputes__status="o")\n')
    corrections, games = layer("referees.models"), layer("scoring.lists")
    found = upward_relations(
        {"scoring.lists": source}, {"corrections": corrections, "games": games, "disputes": corrections}
    )
    assert found == [
        f"scoring.lists:1 uses 'corrections' of layer {corrections}",
        f"scoring.lists:3 uses 'disputes' of layer {corrections}",
    ]


# Each app renders its own templates (templates/<app label>/), so a page is found beside its views:
# a view of one app rendering another's folder is how the house got hard to read.

#: Template folders every app may render: the shared helpers' (core) and Django's login.
SHARED_TEMPLATES = {"core", "registration"}
TEMPLATE_NAME = re.compile(r"^([a-z_]+)/[\w.-]+\.(html|txt)$")


def template_folder(app: str) -> str:
    """An app's folder under templates/: its label (``leagues.office``'s is ``leagueoffice``)."""
    from django.apps import apps

    labels = {config.name: config.label for config in apps.get_app_configs()}
    return labels.get(app, app)


def foreign_templates(modules: dict[str, Path]) -> list[str]:
    found = []
    for module, path in sorted(modules.items()):
        top = template_folder(app_of(module))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                match = TEMPLATE_NAME.match(node.value)
                if match and match.group(1) not in {top, *SHARED_TEMPLATES}:
                    found.append(f"{module}:{node.lineno} renders {node.value}")
    return found


def test_every_app_renders_only_its_own_templates(modules):
    assert foreign_templates(modules) == []
    assert (ROOT / "templates" / "standings" / "standings.html").exists()  # the scan looks where they are


def test_a_view_rendering_another_apps_template_is_found(tmp_path):
    source = tmp_path / "views.py"
    source.write_text('render(request, "tournaments/players.html")\nrender(request, "standings/live.html")\n')
    assert foreign_templates({"standings.views": source}) == ["standings.views:1 renders tournaments/players.html"]


def test_every_package_of_the_house_ships_in_the_wheel():
    """pyproject's package list is written by hand: an app left out installs a wheel whose
    settings name a module it does not hold (found only by .ci/wheel_check.py's serve)."""
    import tomllib

    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    included = pyproject["tool"]["setuptools"]["packages"]["find"]["include"]
    missing = [package for package in PACKAGES if f"{package}*" not in included]
    assert all("." not in package for package in included), "nested apps ship with their folder"
    assert not missing, f"add to [tool.setuptools.packages.find] include: {missing}"
