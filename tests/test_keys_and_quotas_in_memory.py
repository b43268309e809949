"""App keys and quotas are answered from memory (toolkit.sandbox.apps.models): the answers stay those of the
store — a new app's keys work at once, a changed limit applies at once, counts past a flush carry on, and two
sandboxes sharing one store file (as two processes do) see each other's apps and share one count."""
from __future__ import annotations

import pytest

from toolkit.sandbox.app import Sandbox
from toolkit.sandbox.apps.models import FLUSH_EVERY
from toolkit.sandbox.web import SpecError


def _close(*sandboxes):
    for sb in sandboxes:
        sb.model("events").stop()
        sb.store.close()


def test_counts_past_a_flush_and_limits_apply_at_once():
    sb = Sandbox()
    apps = sb.apps
    try:
        limit = FLUSH_EVERY + 5
        apps.set_quota("100001", "local_search_address", limit)
        for _ in range(limit):
            apps.charge("100001", "local_search_address")
        with pytest.raises(SpecError) as info:
            apps.charge("100001", "local_search_address")
        assert info.value.body == {"code": -10, "msg": "API limit has been exceeded."}
        assert apps.usage("100001", "local_search_address") == limit
        row = sb.store.one("SELECT used FROM quota_use WHERE app_id = '100001' AND api = 'local_search_address'")
        assert row["used"] == limit                       # usage() wrote the count to the table
        apps.set_quota("100001", "local_search_address", limit + 1)
        apps.charge("100001", "local_search_address")     # the raised limit applies to the next call
        with pytest.raises(SpecError):
            apps.charge("100001", "local_search_address")
        apps.set_quota("100001", "local_search_address", None)
        apps.charge("100001", "local_search_address")     # unlimited again
        assert apps.usage("100001", "local_search_address") == limit + 2
        assert apps.usage("100002", "local_search_address") == 0
    finally:
        _close(sb)


def test_new_and_changed_apps_are_seen_at_once():
    sb = Sandbox()
    apps = sb.apps
    try:
        demo = apps.public_config()
        assert apps.find_key(demo["rest_api_key"])[1] == "rest_api"
        assert apps.find_key("no-such-key") is None
        new = apps.create_app("second")
        found = apps.find_key(new["rest_api_key"])
        assert found[0]["app_id"] == new["app_id"] and found[1] == "rest_api"
        apps.set_webhooks(new["app_id"], unlink="https://example.com/unlink")
        assert apps.find_key(new["admin_key"])[0]["webhooks"] == {"unlink": "https://example.com/unlink"}
        sb.model("identity").update_settings(new["app_id"], client_secret_required=False)
        assert apps.find_key(new["rest_api_key"])[0]["client_secret_required"] == 0
    finally:
        _close(sb)


def test_two_sandboxes_on_one_file_share_apps_and_counts(tmp_path):
    path = str(tmp_path / "shared.sqlite")
    a = Sandbox(path)
    b = Sandbox(path)
    try:
        assert b.apps.find_key(a.apps.public_config()["rest_api_key"]) is not None
        new = a.apps.create_app("made by the other process")
        assert b.apps.find_key(new["rest_api_key"])[0]["app_id"] == new["app_id"]
        a.apps.set_quota("100001", "local_search_keyword", 3)
        a.apps.charge("100001", "local_search_keyword")
        b.apps.charge("100001", "local_search_keyword")
        a.apps.charge("100001", "local_search_keyword")
        with pytest.raises(SpecError):
            b.apps.charge("100001", "local_search_keyword")
        assert a.apps.usage("100001", "local_search_keyword") == 3
    finally:
        _close(a, b)
