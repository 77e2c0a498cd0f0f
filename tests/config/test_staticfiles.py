"""The collected static files: once per version of the code, written so that a power cut
leaves them whole, and a damaged manifest rebuilt at the next start instead of its death."""

from __future__ import annotations

import json

import pytest
from django.contrib.staticfiles.storage import staticfiles_storage

from config import staticfiles
from tests import durable


@pytest.fixture
def collecting(settings, tmp_path):
    """The serving storage (DEBUG off) over three source files of the test's own."""
    sources = tmp_path / "sources"
    (sources / "css").mkdir(parents=True)
    (sources / "css" / "office.css").write_text("body { background: url('../img/table.svg'); }\n")
    (sources / "img").mkdir()
    (sources / "img" / "table.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>\n")
    (sources / "entry.js").write_text("console.log('deal');\n")
    settings.STATICFILES_DIRS = [sources]
    settings.STATICFILES_FINDERS = ["django.contrib.staticfiles.finders.FileSystemFinder"]
    settings.STATIC_ROOT = tmp_path / "staticfiles"
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": "config.staticfiles.DurableManifestStorage"}}
    return sources


def manifest(settings) -> dict:
    return json.loads((settings.STATIC_ROOT / "staticfiles.json").read_text())


def test_the_first_start_collects_durably_and_the_next_one_does_not(collecting, settings, monkeypatch):
    flushed = durable.watch(monkeypatch)
    assert staticfiles.collect()
    root = settings.STATIC_ROOT
    paths = manifest(settings)["paths"]
    assert set(paths) == {"css/office.css", "img/table.svg", "entry.js"}
    # Every collected file, the manifest and the stamp (written last) are on the disk.
    assert all(path in flushed for path in root.rglob("*") if path.is_file())
    assert root / "staticfiles.json" in flushed and staticfiles.stamp_path() in flushed
    assert staticfiles.manifest_problem() is None
    stamped = staticfiles.stamp_path().read_text()
    assert not staticfiles.collect()  # the same version: nothing written
    assert staticfiles.stamp_path().read_text() == stamped


def test_a_changed_source_is_collected_again(collecting, settings):
    staticfiles.collect()
    old = manifest(settings)["paths"]["entry.js"]
    (collecting / "entry.js").write_text("console.log('deal 2');\n")
    assert staticfiles.collect()
    new = manifest(settings)["paths"]["entry.js"]
    assert new != old and (settings.STATIC_ROOT / new).is_file()
    assert not (settings.STATIC_ROOT / old).exists()  # cleared: no file of the old version is left


@pytest.mark.parametrize("damage", [b"", b'{"paths": {"entry.js"', b"\0" * 512], ids=["empty", "cut", "zeros"])
def test_a_damaged_manifest_is_rebuilt_instead_of_dying(collecting, settings, damage):
    staticfiles.collect()
    (settings.STATIC_ROOT / "staticfiles.json").write_bytes(damage)
    assert staticfiles.manifest_problem() == "damaged"
    # A process starting now reads it as no manifest (Django's own storage dies here).
    fresh = staticfiles.DurableManifestStorage()
    assert fresh.hashed_files == {}
    assert staticfiles.collect()
    assert staticfiles.manifest_problem() is None
    assert staticfiles.DurableManifestStorage().hashed_files == manifest(settings)["paths"]


def test_a_collected_file_gone_missing_is_collected_again(collecting, settings):
    staticfiles.collect()
    hashed = manifest(settings)["paths"]["css/office.css"]
    (settings.STATIC_ROOT / hashed).unlink()
    assert staticfiles.manifest_problem() == f"{hashed} is missing"
    assert staticfiles.collect() and (settings.STATIC_ROOT / hashed).is_file()


def test_a_cut_between_clearing_and_the_stamp_collects_again(collecting, settings, monkeypatch):
    staticfiles.collect()
    (collecting / "entry.js").write_text("console.log('deal 3');\n")

    def cut(folder):
        raise KeyboardInterrupt  # the power goes while the new files are flushed

    monkeypatch.setattr(staticfiles, "sync_tree", cut)
    with pytest.raises(KeyboardInterrupt):
        staticfiles.collect()
    assert not staticfiles.stamp_path().exists()  # removed before any file changed
    monkeypatch.undo()
    assert staticfiles.collect()


def test_the_manifest_is_written_whole_never_deleted_first(collecting, settings, monkeypatch):
    staticfiles.collect()
    staticfiles_storage.hashed_files = {"entry.js": "entry.0123456789ab.js"}
    written = []
    monkeypatch.setattr(staticfiles, "write_atomic", lambda path, data: written.append((path, json.loads(data))))
    staticfiles_storage.save_manifest()
    assert written[0][0] == settings.STATIC_ROOT / "staticfiles.json"
    assert written[0][1]["paths"] == {"entry.js": "entry.0123456789ab.js"} and written[0][1]["version"] == "1.1"
    assert (settings.STATIC_ROOT / "staticfiles.json").is_file()  # the old one stays until the new one replaces it
