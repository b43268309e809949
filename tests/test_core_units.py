"""Units of the core: frames, secrets, config, the lab command, sandbox quotas and clock."""
from __future__ import annotations

import pickle

import httpx
import pandas as pd
import pytest

from toolkit import errors
from toolkit.cli import lab_command, sandbox_env
from toolkit.config import Config, Hosts
from toolkit.frames import frame
from toolkit.secrets import Secret


def test_frame_types_flattening_and_meta():
    df = frame([{"x": "129.0", "y": "35.1", "created_at": "2026-11-20T09:00:00Z", "t": 1763629200,
                 "road_address": {"zone_no": "48058"}, "n": "3"},
                {"x": "", "y": None, "created_at": None, "t": None, "road_address": None, "n": ""}],
               floats=["x", "y"], datetimes=["created_at"], unix=["t"], ints=["n"], meta={"total_count": 2})
    assert df["x"].dtype == "float64" and pd.isna(df["x"][1])
    assert str(df["created_at"].dt.tz) == "UTC" and df["created_at"][0].hour == 9
    assert str(df["t"].dt.tz) == "UTC" and df["t"][0].year == 2025
    assert df["n"].dtype == "Int64" and df["road_address.zone_no"][0] == "48058"
    assert df.attrs["meta"] == {"total_count": 2}


def test_empty_frame_keeps_its_columns():
    df = frame([], columns=["id", "x"], floats=["x"])
    assert list(df.columns) == ["id", "x"] and len(df) == 0


def test_secret_masks_and_refuses_pickling():
    s = Secret("0123456789abcdef0123")
    assert "0123456789" not in repr(s) and "0123456789" not in str(s) and f"{s}".endswith("0123")
    assert s == "0123456789abcdef0123" and s.reveal() == "0123456789abcdef0123"
    assert str(Secret("short")) == "••••"
    with pytest.raises(TypeError):
        pickle.dumps(s)


def test_hosts_must_be_urls():
    with pytest.raises(ValueError, match="local"):
        Hosts(auth="http://a", api="http://a", local="ftp://x", navi="http://a", status="http://a")


def test_config_from_env_keeps_keys_secret():
    env = {f"TOOLKIT_{n}_URL": f"https://{n.lower()}.example.test" for n in ("AUTH", "API", "LOCAL", "NAVI", "STATUS")}
    env["TOOLKIT_REST_API_KEY"] = "rest-key-value-123456"
    cfg = Config.from_env(env)
    assert cfg.hosts.navi == "https://navi.example.test"
    assert isinstance(cfg.credentials.rest_api_key, Secret) and "rest-key-value" not in repr(cfg)
    assert Config.from_env({}) is None


def test_lab_command_is_loopback_on_the_notebooks_folder(tmp_path):
    cmd = lab_command(tmp_path, ["--no-browser"])
    assert cmd[1:4] == ["-m", "jupyter", "lab"] and f"--notebook-dir={tmp_path}" in cmd
    assert "--ip=127.0.0.1" in cmd and cmd[-1] == "--no-browser"
    assert lab_command(tmp_path, ["--", "--port=9"])[-1] == "--port=9"  # `toolkit lab -- --port=9`


def test_sandbox_env_points_a_client_at_the_sandbox(sandbox_server):
    env = sandbox_env(sandbox_server.config())
    assert env["TOOLKIT_LOCAL_URL"] == sandbox_server.hosts()["local"]
    assert env["TOOLKIT_REST_API_KEY"] == sandbox_server.app_config()["rest_api_key"]
    cfg = Config.from_env(env)
    assert cfg.credentials.admin_key == sandbox_server.app_config()["admin_key"]


def test_quota_exhaustion_answers_code_minus_10(fresh_server):
    from toolkit.sandbox.web import SpecError

    apps = fresh_server.sandbox.apps
    r = httpx.post(fresh_server.base_url + "/sandbox/quotas", json={"api": "local_search_address", "limit": 2})
    assert r.status_code == 200
    apps.charge("100001", "local_search_address")
    apps.charge("100001", "local_search_address")
    with pytest.raises(SpecError) as info:
        apps.charge("100001", "local_search_address")
    assert info.value.status == 400 and info.value.body == {"code": -10, "msg": "API limit has been exceeded."}
    fresh_server.sandbox.clock.advance(86400)  # a new sandbox day resets the count
    apps.charge("100001", "local_search_address")


def test_clock_control_api(fresh_server, fresh_tk):
    before = fresh_tk.sandbox.clock()
    after = fresh_tk.sandbox.advance(hours=25)
    assert after["unix"] - before["unix"] == 25 * 3600 and after["frozen"] is True
    with pytest.raises(errors.InvalidArgumentError):
        fresh_tk.sandbox.control("POST", "/sandbox/clock", json={"advance": -5})


def test_unknown_paths_and_methods_answer_in_the_spec_shape(sandbox_server):
    r = httpx.get(sandbox_server.hosts()["api"] + "/v9/nothing")
    assert r.status_code == 404 and set(r.json()) == {"msg", "code"}
    r = httpx.delete(sandbox_server.hosts()["status"] + "/api/health/current")
    assert r.status_code == 405 and set(r.json()) == {"msg", "code"}


@pytest.mark.parametrize("module", ["toolkit.area", "toolkit.secrets", "toolkit.errors", "toolkit.frames",
                                    "toolkit.http", "toolkit.sandbox.store", "toolkit.sandbox.clock",
                                    "toolkit.sandbox.web", "toolkit.config", "toolkit.loopback",
                                    "toolkit.coords", "toolkit.categories", "toolkit.authpages", "tests.bench.procs",
                                    "toolkit.jupyter.fonts"])
def test_docstring_examples_of_the_core_run(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0
