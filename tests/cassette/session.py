"""One session over every area, run twice with the same code: recorded against a sandbox configured as a remote
service (explicit hosts and keys, as a real-service user configures the client), then replayed in a fresh process
with no keys, no sandbox and no network (``python -m tests.cassette.session CASSETTE OUT``).

What the session returns (frames, texts) is pickled by the replay and compared by ``test_round_trip.py`` with the
recording's, after the recording's secrets are replaced by the placeholders the cassette wrote."""
from __future__ import annotations

import asyncio
import io
import os
import pickle
import socket
import sys

import pandas as pd

import toolkit
from toolkit.reports import consent_figure, consent_summary
from toolkit.widgets import LoginWidget

SCOPES = ["profile", "account_email", "openid", "friends", "talk_message", "plusfriends", "shipping_address"]
SEOMYEON = (129.0592, 35.1579)


def customer_addresses(start: int, stop: int) -> list[str]:
    """Addresses as a customer file writes them (toolkit's messy sample: 번지, 부산시, no city, units...)."""
    frame = pd.read_csv(toolkit.samples.path("customers_busan.csv"))
    return frame["address"].iloc[start:stop].tolist()


def run(tk, connect_async, log_in) -> dict:
    """The session: ``log_in(widget)`` completes the login widget's flow (the user's side); ``connect_async()``
    makes the async client (inside the running loop). Returns name → frame or text."""
    out: dict = {}
    # login through the widget's flow, then consent
    widget = LoginWidget(tk, scopes=SCOPES)
    log_in(widget)
    out["widget"] = widget.status.value + " " + widget.profile.value
    out["claims"] = pd.DataFrame([dict(tk.oauth.token.claims)])
    out["me"] = pd.json_normalize(tk.user.me())
    out["userinfo"] = tk.user.userinfo(frame=True)
    out["scopes"] = tk.user.scopes()
    out["revoked"] = tk.user.revoke_scopes(["account_email"])
    out["shipping"] = tk.user.shipping_addresses()
    # story
    story_id = tk.story.post_note("기록해 둔 답으로 다시 실행합니다", permission="F")
    out["story"] = pd.json_normalize(tk.story.mystory(story_id))
    out["stories"] = tk.story.mystories()
    # talk and channel
    friends = tk.talk.all_friends()
    out["friends"] = friends
    out["sent"] = tk.talk.send_to_friends(friends.uuid[:2].tolist(), toolkit.templates.text(
        "보고서가 나왔습니다", link=toolkit.templates.link(web_url="https://example.test/report")))
    out["channels"] = tk.channel.relations()
    # local search
    out["address"] = tk.local.address("부산진구 전포동 341-17")
    out["cafes"] = tk.local.category("CE7", x=SEOMYEON[0], y=SEOMYEON[1], radius=500, sort="distance")
    out["pharmacies"] = tk.local.keyword("약국", x=SEOMYEON[0], y=SEOMYEON[1], radius=800)
    # bulk geocode on the sync client (its requests run on a private event loop in a worker thread)
    out["geocoded"] = tk.local.geocode(customer_addresses(0, 24), progress=False)
    # the async client: a bulk geocode and a regions lookup concurrently with the status
    out.update(asyncio.run(_async_part(connect_async)))
    # a route
    route = tk.navi.directions((129.0325, 35.1000, "남포동"), (129.0600, 35.1570, "서면"), alternatives=True)
    out["route.summary"], out["route.roads"], out["route.guides"] = route.summary, route.roads, route.guides
    # status and consent reports
    weekly = tk.status.weekly(days=7)
    out["weekly.text"] = weekly.text
    for name, frame in weekly.tables().items():
        out[f"weekly.{name}"] = frame
    out["weekly.png"] = _png(weekly.figure)
    out["status"] = tk.status.current()
    report = tk.user.consent_report()
    scopes = [tk.user.scopes(target_id=u) for u in report.index]
    out["consent_report"] = report
    out["consent_summary"] = summary = consent_summary(report, scopes)
    out["consent.png"] = _png(consent_figure(summary))
    # what the route's map draws (folium gives each map element a new random id, so the HTML itself differs)
    out["route.geojson"] = route.geojson(by_road=True)
    return out


def _png(figure) -> bytes:
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", metadata={"Software": None})
    plt.close(figure)
    return buffer.getvalue()


async def _async_part(connect_async) -> dict:
    async with connect_async() as atk:
        geocoded, status = await asyncio.gather(
            atk.local.geocode(customer_addresses(24, 48), progress=False), atk.status.current(lang="en"))
        points = geocoded.loc[geocoded.geocode_status == "matched", ["x", "y"]].head(8)
        regions = await atk.local.regions_of(points, progress=False)
    return {"async.geocoded": geocoded, "async.status": status, "async.regions": regions}


# ---------------------------------------------------------------------------------------------- the replay
def _no_network() -> None:
    """Any connection this process tries fails (the replay needs none)."""
    def refuse(*args, **kwargs):
        raise OSError("the replay tried the network")

    socket.socket.connect = refuse
    socket.socket.connect_ex = refuse
    socket.create_connection = refuse
    socket.getaddrinfo = refuse


def replay(cassette: str) -> dict:
    """The session again from ``cassette``, and what a replay does with a call it lacks."""
    assert not [k for k in os.environ if k.startswith("TOOLKIT_")], "the replay must run with no configuration"
    tk = toolkit.connect(replay=cassette)

    def log_in(widget):
        widget.replay_button.click()             # the widget's flow in a replay: the recording's login
        assert "logged in" in widget.status.value, widget.status.value

    out = run(tk, lambda: toolkit.connect_async(replay=tk.cassette), log_in)
    misses = {}
    try:
        tk.local.address("부산진구 전포동 341-18")
    except toolkit.cassette.CassetteMiss as exc:
        misses["address"] = str(exc)
    try:       # a bulk run meeting one address the recording never asked: the run stops, no row is "error"
        tk.local.geocode(customer_addresses(0, 3) + ["부산진구 전포동 341-18"], progress=False)
    except toolkit.cassette.CassetteMiss as exc:
        misses["geocode"] = str(exc)
    out["misses"] = misses
    # tk.login() of a notebook replays through the recording's browser too (a second client: the first login)
    again = toolkit.connect(replay=cassette)
    out["login.claims"] = pd.DataFrame([dict(again.login(scopes=SCOPES).claims)])
    out["repr"] = repr(tk)
    return out


if __name__ == "__main__":
    import matplotlib

    matplotlib.use("Agg")
    _no_network()
    result = replay(sys.argv[1])
    with open(sys.argv[2], "wb") as fh:
        pickle.dump(result, fh)
