"""Soak benchmark: does the sandbox's resident memory level off under a long run of varied requests?

    python tests/bench/bench_soak.py              # 10 minutes, memory sampled every 5 s
    python tests/bench/bench_soak.py --short      # 75 s, every 3 s (CI)
    python tests/bench/bench_soak.py --seconds 1800

A class sandbox runs for days, so every cache it keeps must be bounded (each one states its bound where it is
defined). ``toolkit sandbox`` runs in its own process; Debian's ``wrk`` (its own process, 1 thread, 16
connections) sends it requests that hardly ever repeat, drawn at random by a Lua script: region and address of a
random point of the city's rectangle (sea included), coordinate conversions, keyword searches (real place names,
region word + common word, common words, and made-up words that find nothing, with a random centre and radius
or the city's rectangle, random pages), category searches around random points, address searches (real
addresses, the same roads and lots with other numbers, made-up text), car routes between random addresses
(now, and at a random departure time in the next week: another traffic bucket) and map tiles of the city at
random zooms. The real addresses and place names are read from the sandbox itself before the run (no data file
is read here). The sandbox's resident memory (``VmRSS`` of its process) is sampled every few seconds and printed
as a curve; the goal: over the last third of the run, its peak is less than 5 % above its value at the start of
that third. Throughput varies with whatever else the machine runs; memory growth is what is judged. A request
that fails or is not answered 2xx makes the exit code 1. Without ``wrk`` on PATH the benchmark says so and
skips (exit code 0).
"""
from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.procs import LUA_REPORT, control, cpu_seconds, goal, rss_mb, sandbox_process  # noqa: E402

CITY = (128.76, 34.88, 129.32, 35.40)      # the city's rectangle (x1, y1, x2, y2), as bench_server sends it
WORDS = ["카페", "약국", "맛집", "호텔", "편의점", "병원", "은행", "주차장", "학교", "치킨", "빵", "국밥", "분식", "마트",
         "주유소", "학원", "공원", "시장", "역", "커피", "세탁", "미용실", "꽃", "서점", "헬스"]
SYLLABLES = list("가나다라마바사아자차카타파하고노도로모보소오조초코토포호구누두루무부수우주추쿠투푸후기니디리미비시이지")
GROUPS = ["MT1", "CS2", "PS3", "SC4", "AC5", "PK6", "OL7", "SW8", "BK9", "CT1", "AG2", "PO3", "AT4", "AD5", "FD6",
          "CE7", "HP8", "PM9"]
SYSTEMS = ["WGS84", "WCONGNAMUL", "CONGNAMUL", "WTM", "TM", "KTM", "UTM", "BESSEL", "WKTM", "WUTM"]
GOAL_GROWTH = 5.0          # per cent, over the last third of the run

LUA = r"""
local auth = {["Authorization"] = "%(auth)s"}
local addresses = {%(addresses)s}
local spots = {%(spots)s}
local places = {%(places)s}
local regions = {%(regions)s}
local words = {%(words)s}
local syllables = {%(syllables)s}
local groups = {%(groups)s}
local systems = {%(systems)s}
local X1, Y1, X2, Y2 = %(x1)f, %(y1)f, %(x2)f, %(y2)f
local RECT = "%(x1)g,%(y1)g,%(x2)g,%(y2)g"
local NOW = %(now)d
math.randomseed(%(seed)d)

local function enc(s)
  return (string.gsub(s, "[^%%w%%-%%._~]", function(c) return string.format("%%%%%%02X", string.byte(c)) end))
end
local function pick(t) return t[math.random(#t)] end
local function rx() return string.format("%%.6f", X1 + math.random() * (X2 - X1)) end
local function ry() return string.format("%%.6f", Y1 + math.random() * (Y2 - Y1)) end
local function made_up(n)
  local s = ""
  for _ = 1, n do s = s .. pick(syllables) end
  return s
end
local function near()   -- a point close to a real address (a route's end)
  local p = pick(spots)
  return string.format("%%.6f,%%.6f", p[1] + (math.random() - 0.5) * 0.002, p[2] + (math.random() - 0.5) * 0.002)
end
local function where()  -- keyword search: a random centre and radius, or the city's rectangle
  local r = math.random(3)
  if r == 1 then return "&rect=" .. RECT end
  local s = "&x=" .. rx() .. "&y=" .. ry() .. "&radius=" .. math.random(200, 20000)
  if r == 3 then s = s .. "&sort=distance" end
  return s
end

request = function()
  local r = math.random(1000)
  local path
  if r <= 200 then
    path = "/local/v2/local/geo/coord2regioncode.json?x=" .. rx() .. "&y=" .. ry()
    if math.random(4) == 1 then path = path .. "&output_coord=" .. pick({"WTM", "WCONGNAMUL", "TM"}) end
  elseif r <= 330 then
    path = "/local/v2/local/geo/coord2address.json?x=" .. rx() .. "&y=" .. ry()
  elseif r <= 380 then
    path = "/local/v2/local/geo/transcoord.json?x=" .. rx() .. "&y=" .. ry() .. "&output_coord=" .. pick(systems)
  elseif r <= 580 then
    local q, k = nil, math.random(10)
    if k <= 4 then q = pick(places)
    elseif k <= 7 then q = pick(regions) .. " " .. pick(words)
    elseif k <= 8 then q = pick(words)
    else q = made_up(math.random(2, 4)) end
    path = "/local/v2/local/search/keyword.json?query=" .. enc(q) .. where() .. "&size=15&page=" .. math.random(3)
  elseif r <= 650 then
    path = "/local/v2/local/search/category.json?category_group_code=" .. pick(groups) .. "&x=" .. rx()
      .. "&y=" .. ry() .. "&radius=" .. math.random(100, 5000) .. "&page=" .. math.random(3)
  elseif r <= 965 then
    local a, k = pick(addresses), math.random(10)
    if k <= 6 then
    elseif k <= 9 then   -- the same road or lot, another number
      a = string.gsub(a, "%%d+$", tostring(math.random(1, 400)))
    else a = pick(regions) .. " " .. made_up(2) end
    path = "/local/v2/local/search/address.json?query=" .. enc(a) .. "&size=" .. math.random(1, 10)
  elseif r <= 985 then
    path = "/navi/v1/directions?origin=" .. near() .. "&destination=" .. near()
      .. "&priority=" .. pick({"RECOMMEND", "TIME", "DISTANCE"})
    if math.random(6) == 1 then path = path .. "&avoid=" .. pick({"toll", "motorway", "schoolzone"}) end
  elseif r <= 990 then   -- a departure time in the next week: another traffic bucket
    path = "/navi/v1/future/directions?origin=" .. near() .. "&destination=" .. near()
      .. "&departure_time=" .. os.date("!%%Y%%m%%d%%H%%M", NOW + 9 * 3600 + math.random(3600, 7 * 86400))
  elseif r <= 995 then
    local z = math.random(11, 16)
    local n = 2 ^ z
    local lon, lat = X1 + math.random() * (X2 - X1), Y1 + math.random() * (Y2 - Y1)
    local x = math.floor((lon + 180) / 360 * n)
    local rad = math.rad(lat)
    local y = math.floor((1 - math.log(math.tan(rad) + 1 / math.cos(rad)) / math.pi) / 2 * n)
    path = "/sandbox/tiles/" .. z .. "/" .. x .. "/" .. y .. ".png"
  else
    path = "/local/v2/local/geo/coord2regioncode.json?x=" .. rx() .. "&y=" .. ry()
  end
  return wrk.format("GET", path, auth)
end
"""


def lua_list(items: list[str]) -> str:
    return ",".join('"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"' for s in items)


def tile_of(x: float, y: float, z: int) -> tuple[int, int]:
    """The XYZ tile holding a WGS84 point at zoom ``z``."""
    import math

    n = 2 ** z
    return int((x + 180) / 360 * n), int((1 - math.asinh(math.tan(math.radians(y))) / math.pi) / 2 * n)


def get(sb, path: str) -> dict:
    req = urllib.request.Request(sb.base_url + path, headers={"Authorization": f"ServiceAK {sb.key}"})
    with urllib.request.urlopen(req, timeout=120) as answer:
        return json.loads(answer.read())


def city_sample(sb, rng: random.Random) -> dict:
    """Real place names, addresses (those of places' points) and region names, read from the sandbox's own
    answers; the places' points are the ends of routes."""
    places: dict[str, tuple[float, float]] = {}
    for word in WORDS:
        for page in (1, 2):
            q = urllib.parse.urlencode({"query": word, "rect": ",".join(map(str, CITY)), "size": 15, "page": page})
            for d in get(sb, f"/local/v2/local/search/keyword.json?{q}")["documents"]:
                places[d["place_name"]] = (float(d["x"]), float(d["y"]))
    spots = rng.sample(sorted(places.values()), min(400, len(places)))
    addresses = []
    for x, y in spots:
        for doc in get(sb, f"/local/v2/local/geo/coord2address.json?x={x:.6f}&y={y:.6f}")["documents"]:
            for kind in ("road_address", "address"):
                if doc[kind]:
                    addresses.append(doc[kind]["address_name"])
    regions = set()
    for level in ("sigungu", "emd"):
        geo = get(sb, f"/sandbox/local/regions.geojson?level={level}")
        regions.update(f["properties"]["name"] for f in geo["features"])
    return {"addresses": addresses, "spots": spots, "places": sorted(places), "regions": sorted(regions)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--short", action="store_true")
    parser.add_argument("--seconds", type=int, default=None)
    parser.add_argument("--every", type=float, default=None, help="seconds between two memory samples")
    args = parser.parse_args(argv)
    if shutil.which("wrk") is None:
        print("bench_soak: SKIPPED: wrk is not installed (Debian: apt-get install wrk; .ci/run installs it)")
        return 0
    seconds = args.seconds or (75 if args.short else 600)
    every = args.every or (3.0 if args.short else 5.0)
    rng = random.Random(7)
    with sandbox_process() as sb:
        pid = sb.proc.pid
        city = city_sample(sb, rng)
        now = int(control(sb, "GET", "/sandbox/clock")["unix"])      # the sandbox's clock: departures after it
        script = LUA % {
            "auth": f"ServiceAK {sb.key}", "addresses": lua_list(city["addresses"]),
            "spots": ",".join(f"{{{x:.6f},{y:.6f}}}" for x, y in city["spots"]), "places": lua_list(city["places"]),
            "regions": lua_list(city["regions"]), "words": lua_list(WORDS), "syllables": lua_list(SYLLABLES),
            "groups": lua_list(GROUPS), "systems": lua_list(SYSTEMS), "x1": CITY[0], "y1": CITY[1],
            "x2": CITY[2], "y2": CITY[3], "now": now, "seed": 7}
        # one request of each kind first: the datasets load on first use (not what is measured)
        x, y = city["spots"][0]
        tx, ty = tile_of(x, y, 12)
        for path in (f"/local/v2/local/search/keyword.json?query=%EC%B9%B4%ED%8E%98&rect={','.join(map(str, CITY))}",
                     f"/local/v2/local/geo/coord2regioncode.json?x={x}&y={y}",
                     f"/navi/v1/directions?origin={x},{y}&destination={city['spots'][1][0]},{city['spots'][1][1]}",
                     f"/sandbox/tiles/12/{tx}/{ty}.png"):
            req = urllib.request.Request(sb.base_url + path, headers={"Authorization": f"ServiceAK {sb.key}"})
            urllib.request.urlopen(req, timeout=120).read()
        with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
            f.write(script + LUA_REPORT)
            lua = f.name
        rss0, cpu0 = rss_mb(pid), cpu_seconds(pid)
        print(f"soak: toolkit sandbox (pid's resident memory after loading the city: {rss0:.0f} MB) under wrk, "
              f"1 thread, 16 connections, {seconds} s of varied requests ({len(city['addresses'])} real addresses, "
              f"{len(city['places'])} place names, {len(city['regions'])} region names, random points, made-up "
              f"words); resident memory every {every:g} s", flush=True)
        load = subprocess.Popen(["wrk", "-t1", "-c16", f"-d{seconds}s", "--timeout", "10s", "-s", lua, sb.base_url],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        start = time.monotonic()
        samples: list[tuple[float, float]] = []
        print(f"{'time s':>8}{'RSS MB':>10}", flush=True)
        while load.poll() is None:
            time.sleep(every - (time.monotonic() - start) % every)
            if load.poll() is not None:
                break
            t = time.monotonic() - start
            samples.append((t, rss_mb(pid)))
            print(f"{t:>8.0f}{samples[-1][1]:>10.1f}", flush=True)
        out, err = load.communicate()
        cpu = cpu_seconds(pid) - cpu0
        Path(lua).unlink()
    found = re.search(r"^\{.*\}$", out, re.M)
    if not found or len(samples) < 6:
        print(f"bench_soak: wrk gave no summary or too few samples ({len(samples)}): {err[-500:]}")
        return 1
    stats = json.loads(found.group(0))
    rate = stats["requests"] / stats["seconds"]

    def at(t: float) -> float:
        return min(samples, key=lambda s: abs(s[0] - t))[1]

    third = [rss for t, rss in samples if t >= samples[-1][0] * 2 / 3]
    base = at(samples[-1][0] * 2 / 3)
    growth = (max(third) - base) / base * 100
    print(f"wrk: {stats['requests']} requests, {rate:.0f} req/s, p50 {stats['p50_us'] / 1e3:.1f} ms, "
          f"p99 {stats['p99_us'] / 1e3:.1f} ms, errors {stats['errors']}, non-2xx {stats['non2xx']}; "
          f"the sandbox's CPU {cpu / stats['seconds'] * 100:.0f} %")
    print(f"resident memory: {at(30):.0f} MB at 30 s, {base:.0f} MB at {samples[-1][0] * 2 / 3:.0f} s (2/3 of the "
          f"run), {samples[-1][1]:.0f} MB at the end ({samples[-1][0]:.0f} s), peak {max(r for _, r in samples):.0f} MB; "
          f"over the last third: peak {max(third):.0f} MB")
    print(goal("soak: resident memory growth over the last third of the run (%)", growth, GOAL_GROWTH,
               at_most=True))
    if stats["errors"] or stats["non2xx"]:
        print(f"bench_soak: {stats['errors'] + stats['non2xx']} requests failed or were not 2xx")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
