"""Reports from the toolkit's frames: status availability, incidents, the generated paragraph and the exports."""
from __future__ import annotations

import pandas as pd
import pytest

from toolkit.frames import STATUS_ORDER
from toolkit.reports import AVAILABILITY_DEFINITION, export_frames, status_availability, status_incidents, status_paragraph, status_weekly
import toolkit.data


def history() -> pd.DataFrame:
    days = pd.date_range("2026-11-14", periods=4, freq="D", tz="UTC")
    rows = []
    for d in days:
        rows.append({"date": d, "productId": "local", "productName": "로컬", "apiId": None, "apiName": None,
                     "status": "RED" if d.day == 15 else "GREEN"})
        rows.append({"date": d, "productId": "login", "productName": "로그인", "apiId": None, "apiName": None,
                     "status": "MAINTENANCE" if d.day == 17 else "GREEN"})
    rows.append({"date": days[1], "productId": "local", "productName": "로컬", "apiId": "local_search_address",
                 "apiName": "주소 검색", "status": "RED"})
    df = pd.DataFrame(rows)
    df["status"] = pd.Categorical(df["status"], categories=STATUS_ORDER, ordered=True)
    return df


def current() -> pd.DataFrame:
    df = pd.DataFrame([{"productId": "local", "apiId": None, "status": "GREEN"},
                       {"productId": "login", "apiId": None, "status": "YELLOW"}])
    df["status"] = pd.Categorical(df["status"], categories=STATUS_ORDER, ordered=True)
    return df


def test_availability_counts_green_days_per_product_and_api():
    av = status_availability(history()).set_index("subject")
    assert av.loc["local", "days"] == 4 and av.loc["local", "RED"] == 1
    assert av.loc["local", "days_up_pct"] == 75.0 and "availability_pct" not in av   # the time measure's name
    # planned maintenance is left out of the days counted: login was up on every day counted
    assert av.loc["login", "MAINTENANCE"] == 1 and av.loc["login", "days_up_pct"] == 100.0
    # an API is listed only on its issue days: its other 3 days count as GREEN
    assert av.loc["local / local_search_address", "GREEN"] == 3
    assert av.loc["local / local_search_address", "days_up_pct"] == 75.0
    assert str(av.index.dtype) == "string"


def test_incidents_are_the_non_green_days_in_utc():
    inc = status_incidents(history())
    assert list(inc["date_utc"]) == ["2026-11-15", "2026-11-15", "2026-11-17"]
    assert list(inc["subject"]) == ["local", "local / local_search_address", "login"]
    assert list(inc["status"].astype(str)) == ["RED", "RED", "MAINTENANCE"]


def test_paragraph_names_outages_with_their_apis_and_the_current_state():
    h = history()
    text = status_paragraph(status_availability(h), status_incidents(h), current(), start="2026-11-14",
                            end="2026-11-17")
    assert "2026-11-14 to 2026-11-17 (UTC days)" in text
    assert "available 85.7% of the product-days counted (6 of 7)" in text
    # products and APIs by their names, not their ids
    assert "Outages (RED) on 1 product-day(s): 로컬 on 2026-11-15 (주소 검색)." in text
    assert "Planned maintenance (not counted) on 1 product-day(s): 로그인 on 2026-11-17." in text
    assert "Least available product: 로컬 (75.0%)." in text and "local_search_address" not in text
    assert text.endswith(f"({AVAILABILITY_DEFINITION})")
    assert "Right now: login YELLOW." in text


def test_weekly_report_exports_csv_excel_png_and_text(tmp_path):
    pytest.importorskip("openpyxl")
    import matplotlib

    matplotlib.use("Agg")
    h = history()
    h["productName"] = h["productName"].astype("string")
    h["apiName"] = h["apiName"].astype("string")
    report = status_weekly(current().assign(productName="x", apiName=None), h)
    written = report.export(tmp_path)
    # one kind of key: the file name
    assert set(written) == {"status_about.csv", "status_availability.csv", "status_incidents.csv", "status.xlsx",
                            "status.png", "status.txt"}
    assert all(path.name == name for name, path in written.items())
    back = pd.read_csv(written["status_incidents.csv"], encoding="utf-8-sig")
    assert list(back["subject"]) == ["local", "local / local_search_address", "login"]
    book = pd.read_excel(written["status.xlsx"], sheet_name=None)
    assert list(book) == ["about", "availability", "incidents"] and len(book["availability"]) == 3
    assert written["status.png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert written["status.txt"].read_text("utf-8").startswith("Status update for 2026-11-14 to 2026-11-17")


def test_export_without_excel_writes_csv_only(tmp_path):
    written = export_frames(tmp_path, {"t": pd.DataFrame({"a": [1]})}, excel=False)
    assert set(written) == {"report_t.csv"}


def test_consent_summary_rates_with_n_and_required_flag():
    from toolkit.reports import consent_summary

    report = pd.DataFrame({"profile": [True, True, True, True], "friends": [True, False, False, True],
                           "account_email": [False, False, False, True]}, index=[1, 2, 3, 4])
    scopes = pd.DataFrame({"id": ["profile", "friends", "account_email"],
                           "display_name": ["닉네임", "친구 목록", "이메일"],
                           "revocable": pd.array([False, True, pd.NA], dtype="boolean")})
    s = consent_summary(report, scopes).set_index("scope")
    assert list(s.index) == ["profile", "friends", "account_email"]
    assert s.loc["friends", "n"] == 4 and s.loc["friends", "agreed"] == 2 and s.loc["friends", "rate_pct"] == 50.0
    assert bool(s.loc["profile", "required"]) is True and bool(s.loc["friends", "required"]) is False
    assert pd.isna(s.loc["account_email", "required"])


def test_consent_trend_counts_consents_and_withdrawals_per_day():
    from toolkit.reports import consent_events_frame, consent_trend

    day = 86400
    log = [{"type": "linked", "user_id": 1, "scopes": "", "at": 1795165200},
           {"type": "scope_consent", "user_id": 1, "scopes": "profile friends", "at": 1795165200},
           {"type": "scope_consent", "user_id": 2, "scopes": "friends", "at": 1795165200 + 60},
           {"type": "scope_withdraw", "user_id": 1, "scopes": "friends", "at": 1795165200 + day}]
    events = consent_events_frame(log)
    assert len(events) == 4 and set(events["kind"]) == {"consent", "withdraw"}
    trend = consent_trend(events).set_index(["period", "scope"])
    first, second = sorted(trend.index.get_level_values(0).unique())
    assert trend.loc[(first, "friends"), "consents"] == 2
    assert trend.loc[(second, "friends"), "withdrawals"] == 1
    assert trend.loc[(second, "friends"), "agreed"] == 1
    assert str(first.tz) == "UTC"


def test_consent_events_from_the_sandbox_log(fresh_tk):
    from toolkit.reports import consent_events_frame

    fresh_tk.login_as(4100000001, scopes=["profile", "account_email", "friends"])
    fresh_tk.user.revoke_scopes(["friends"])
    events = consent_events_frame(fresh_tk.sandbox.consent_events())
    assert events[events["kind"] == "withdraw"]["scope"].tolist() == ["friends"]
    assert {"profile", "account_email", "friends"} <= set(events[events["kind"] == "consent"]["scope"])


def test_consent_summary_reads_required_from_several_users_scopes():
    from toolkit.reports import consent_summary

    report = pd.DataFrame({"profile": [True, True], "friends": [True, False], "talk_chats": [False, False]},
                          index=[1, 2])
    scopes = pd.DataFrame({"id": ["profile", "friends", "talk_chats", "profile", "friends", "talk_chats"],
                           "display_name": ["닉네임", "친구 목록", "채팅방"] * 2,
                           "revocable": pd.array([False, True, pd.NA, False, pd.NA, pd.NA], dtype="boolean")})
    s = consent_summary(report, scopes).set_index("scope")
    assert bool(s.loc["profile", "required"]) is True and bool(s.loc["friends", "required"]) is False
    assert pd.isna(s.loc["talk_chats", "required"]) and s.loc["friends", "rate_pct"] == 50.0


def test_replayed_consent_history_gives_a_report_over_many_users_and_no_webhooks(fresh_tk):
    import json
    from pathlib import Path

    history = json.loads((toolkit.data.root() / "users" / "consent_history.json")
                         .read_text("utf-8"))["events"]
    fresh_tk.sandbox.freeze()
    with fresh_tk.events.inbox() as inbox:
        inbox.register(fresh_tk)
        _replay_and_check(fresh_tk, history, inbox)


def _replay_and_check(fresh_tk, history, inbox):
    from toolkit.reports import consent_events_frame, consent_summary, consent_trend

    summary = fresh_tk.sandbox.replay_consent_history()
    assert summary["users"] == len({r["user_id"] for r in history}) == 9
    assert fresh_tk.sandbox.replay_consent_history() == summary          # once per sandbox
    report = fresh_tk.user.consent_report()
    assert sorted(report.index) == sorted({r["user_id"] for r in history})
    # the final state of each user is the history replayed: e.g. 도현 withdrew phone_number, Sam account_email
    assert bool(report.loc[4100000004, "name"]) and not bool(report.loc[4100000004, "phone_number"])
    assert not bool(report.loc[4100000010, "account_email"]) and bool(report.loc[4100000009, "friends"])
    rates = consent_summary(report).set_index("scope")["rate_pct"]
    assert rates["profile"] == 100.0 and 0 < rates["account_email"] < 100
    events = consent_events_frame(fresh_tk.sandbox.consent_events())
    assert events["at"].min() == pd.Timestamp("2026-11-13T01:12:00Z")
    assert (events["kind"] == "withdraw").sum() == sum(len(r["scopes"]) for r in history
                                                       if r["type"] == "scope_withdraw")
    trend = consent_trend(events)
    assert trend["period"].nunique() == 7
    # the past week sends no webhook; a login now does
    assert fresh_tk.events.deliveries(wait=0).empty and len(inbox) == 0
    fresh_tk.sandbox.login(4100000001, scopes=["profile"])
    assert inbox.wait(2, timeout=5) and set(inbox.frame()["user_id"].astype(str)) == {"4100000001"}


def test_replaying_the_history_is_refused_when_its_users_are_linked(fresh_tk):
    from toolkit.errors import ApiError

    fresh_tk.sandbox.login(4100000005, scopes=["profile"])
    with pytest.raises(ApiError) as info:
        fresh_tk.sandbox.replay_consent_history()
    assert "linked already" in str(info.value) and "4100000005" in str(info.value)
    assert fresh_tk.user.ids()["elements"] == [4100000005]            # nothing replayed


@pytest.mark.parametrize("wrong,err", [("audience", "invalid_audience"), ("issuer", "invalid_issuer"),
                                       ("signature", "invalid_key")])
def test_forged_set_fails_the_check_it_names(fresh_tk, wrong, err):
    from toolkit.events import SetError, forged_set

    with pytest.raises(SetError) as info:
        fresh_tk.events.verify(forged_set(fresh_tk, wrong=wrong))
    assert info.value.body()["err"] == err


def test_consent_daily_carries_the_running_total_over_quiet_days():
    from toolkit.reports import consent_daily, consent_events_frame, consent_trend

    day = 86400
    log = [{"type": "scope_consent", "user_id": 1, "scopes": "friends", "at": 1795165200},
           {"type": "scope_consent", "user_id": 2, "scopes": "friends", "at": 1795165200 + 3 * day},
           {"type": "scope_withdraw", "user_id": 1, "scopes": "friends", "at": 1795165200 + 4 * day},
           {"type": "scope_consent", "user_id": 3, "scopes": "name", "at": 1795165200 + 2 * day}]
    daily = consent_daily(consent_trend(consent_events_frame(log)))
    assert len(daily) == 5 and list(daily["friends"]) == [1, 1, 1, 2, 1] and list(daily["name"]) == [0, 0, 1, 1, 1]


def test_consent_figure_labels_each_bar_with_agreed_over_n():
    import matplotlib

    matplotlib.use("Agg")
    from toolkit.reports import consent_events_frame, consent_figure, consent_summary, consent_trend

    report = pd.DataFrame({"profile": [True, True], "friends": [True, False]}, index=[1, 2])
    scopes = pd.DataFrame({"id": ["profile", "friends"], "display_name": ["a", "b"],
                           "revocable": pd.array([False, True], dtype="boolean")})
    trend = consent_trend(consent_events_frame([{"type": "scope_consent", "user_id": 1, "scopes": "friends",
                                                 "at": 1795165200}]))
    fig = consent_figure(consent_summary(report, scopes), trend)
    bars, line = fig.axes
    assert [t.get_text() for t in bars.texts] == ["2 of 2", "1 of 2"]
    assert [t.get_text() for t in bars.get_yticklabels()] == ["a", "b"]       # display names, not scope ids
    assert [ln.get_label() for ln in line.get_lines()] == ["b"]
    assert bars.get_title() == "Consent per item: agreed ÷ n\n(n = the 2 linked users)"
    import matplotlib.pyplot as plt

    plt.close(fig)


def _consent_world():
    """Four linked users; friends asked of three (one withdrew), talk_chats never asked; seven optional scopes."""
    optional = ["friends", "gender", "birthday", "age_range", "name", "phone_number"]
    report = pd.DataFrame({"profile": [True] * 4, "friends": [True, True, False, False],
                           "talk_chats": [False] * 4, **{s: [True, False, False, False] for s in optional[1:]}},
                          index=[1, 2, 3, 4])
    scopes = pd.DataFrame({"id": ["profile", "talk_chats", *optional],
                           "display_name": ["Profile", "Chat rooms", "Friends list", "Gender", "Birthday",
                                            "Age range", "Name", "Phone number"],
                           "revocable": pd.array([False, pd.NA] + [True] * 6, dtype="boolean")})
    log = [{"type": "scope_consent", "user_id": u, "scopes": "profile", "at": 1795165200} for u in (1, 2, 3, 4)]
    log += [{"type": "scope_consent", "user_id": u, "scopes": "friends", "at": 1795165200 + 60} for u in (1, 2, 3)]
    log += [{"type": "scope_consent", "user_id": 1, "scopes": " ".join(optional[1:]), "at": 1795165200 + 120},
            {"type": "scope_withdraw", "user_id": 3, "scopes": "friends", "at": 1795165200 + 86400},
            {"type": "scope_consent", "user_id": 9, "scopes": "talk_chats", "at": 1795165200}]   # not linked now
    return report, scopes, log


def test_consent_n_is_the_users_asked_and_a_scope_never_asked_has_no_rate():
    """With the consent log, ``n`` counts the linked users asked for the scope (they agreed to it at some time),
    not every linked user: a withdrawal keeps its user in ``n``; a scope nobody linked was asked for has ``n`` 0
    and no rate (it does not read as "nobody agreed"); a user no longer linked is not counted."""
    from toolkit.reports import consent_events_frame, consent_summary

    report, scopes, log = _consent_world()
    s = consent_summary(report, scopes, events=consent_events_frame(log)).set_index("scope")
    assert list(s.columns[:6]) == ["linked", "n", "agreed", "declined", "withdrew", "rate_pct"]
    assert (s["linked"] == 4).all()
    assert s.loc["friends", ["n", "agreed"]].tolist() == [3, 2] and s.loc["friends", "rate_pct"] == pytest.approx(66.7)
    assert s.loc["profile", "n"] == 4 and s.loc["gender", "n"] == 1 and s.loc["gender", "rate_pct"] == 100.0
    assert s.loc["talk_chats", "n"] == 0 and pd.isna(s.loc["talk_chats", "rate_pct"])
    assert s.index[-1] == "talk_chats"                                   # never asked: last
    without = consent_summary(report, scopes).set_index("scope")        # without the log: over every linked user
    assert (without["n"] == 4).all() and without.loc["talk_chats", "rate_pct"] == 0.0
    per_user = [scopes.iloc[:4], scopes.iloc[4:]]                       # one tk.user.scopes() frame per user
    assert consent_summary(report, per_user).equals(consent_summary(report, scopes))


def test_consent_figure_lists_never_asked_scopes_and_says_what_the_trend_keeps():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from toolkit.reports import consent_events_frame, consent_figure, consent_summary, consent_trend

    report, scopes, log = _consent_world()
    events = consent_events_frame(log)
    fig = consent_figure(consent_summary(report, scopes, events=events), consent_trend(events))
    try:
        bars, line = fig.axes
        names = [t.get_text() for t in bars.get_yticklabels()]
        assert "Chat rooms" not in names and len(names) == 7                     # not a 0 % bar
        assert "Never asked (no consent or decline recorded): Chat rooms" in bars.get_xlabel()
        assert bars.get_title() == ("Consent per item: agreed ÷ n\n"
                                    "(n = users asked, of 4 linked: they agree, declined or withdrew)")
        assert "2 of 3 (1 withdrew)" in [t.get_text() for t in bars.texts]       # friends: agreed of asked
        legend = [t.get_text() for t in bars.get_legend().get_texts()]
        assert legend == ["required by the app (cannot be withdrawn)", "optional"]   # only what is drawn
        assert "the 5 optional items most agreed to now (of 6)" in line.get_title()
        assert len(line.get_lines()) == 5 and line.get_lines()[0].get_label() == "Friends list"
        assert "UTC" in line.get_xlabel() and line.get_ylabel() == "users agreeing"
    finally:
        plt.close(fig)


def test_the_status_heatmap_labels_its_axes_and_says_utc():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from toolkit.plots import status_heatmap, status_report

    ax = status_heatmap(history())
    try:
        assert ax.get_xlabel() == "day (UTC, month-day)" and ax.get_ylabel() == "product"
        assert "UTC day" in ax.get_title()
        assert [t.get_text() for t in ax.get_yticklabels()] == ["local", "login"]
    finally:
        plt.close(ax.figure)
    fig = status_report(current(), history(), by="api")
    try:
        assert fig.axes[1].get_ylabel() == "API" and "UTC" in fig.axes[1].get_xlabel()
    finally:
        plt.close(fig)


def test_an_incident_from_the_sandbox_helper_reaches_the_weekly_update(fresh_tk):
    fresh_tk.sandbox.freeze()
    before = status_weekly(fresh_tk.status.current(lang="en"), fresh_tk.status.history(days=7, lang="en"))
    made = fresh_tk.sandbox.incident("local_search_keyword", "RED", hours=2, started_minutes_ago=10, note="t")
    assert made["end"] - made["start"] == 7200 and made["start"] == fresh_tk.sandbox.clock()["unix"] - 600
    assert fresh_tk.sandbox.incidents()[-1]["id"] == made["id"]
    fresh_tk.sandbox.advance(minutes=5)
    same_day = fresh_tk.status.weekly(days=7)          # whole days only: today's incident is not in it yet
    assert pd.Timestamp(made["start"], unit="s", tz="UTC") not in set(same_day.periods["start_utc"])
    fresh_tk.sandbox.advance(days=1)
    after = fresh_tk.status.weekly(days=7)
    day = pd.Timestamp(made["start"], unit="s", tz="UTC").strftime("%Y-%m-%d")
    assert "local / local_search_keyword" in set(after.incidents.loc[after.incidents["date_utc"] == day, "subject"])
    local = after.days.set_index("subject").loc["local"]
    assert local["RED"] == before.availability.set_index("subject").loc["local", "RED"] + 1
    # the two hours are time down, named by the API's name
    api = after.availability[after.availability["apiId"] == "local_search_keyword"].iloc[0]
    assert api["down_min"] == 120 and api["name"] != "local_search_keyword"
    assert f"{api['name']} {day}" in after.text and "local_search_keyword" not in after.text


def _days(statuses: dict[str, list[str]]) -> pd.DataFrame:
    """A history of product rows: product → its statuses, one a day from 2026-11-14."""
    rows = [{"date": pd.Timestamp("2026-11-14", tz="UTC") + pd.Timedelta(days=i), "productId": pid,
             "productName": pid, "apiId": None, "apiName": None, "status": st}
            for pid, days in statuses.items() for i, st in enumerate(days)]
    df = pd.DataFrame(rows)
    df["status"] = pd.Categorical(df["status"], categories=STATUS_ORDER, ordered=True)
    return df


def _paragraph(h: pd.DataFrame) -> str:
    return status_paragraph(status_availability(h), status_incidents(h))


def test_availability_definition_yellow_is_up_maintenance_not_counted():
    h = _days({"navi": ["GREEN", "YELLOW", "YELLOW", "GREEN"], "channel": ["GREEN", "MAINTENANCE", "GREEN", "GREEN"],
               "search": ["GREEN", "UNKNOWN", "RED", "GREEN"]})
    av = status_availability(h).set_index("subject")
    assert av.loc["navi", "days_up_pct"] == 100.0          # degraded, not down
    assert av.loc["channel", "days_up_pct"] == 100.0       # its maintenance day is not counted
    assert av.loc["search", "days_up_pct"] == round(100 * 2 / 3, 1)   # UNKNOWN not counted, RED down
    text = _paragraph(h)
    assert "Degraded service (YELLOW, counted as up) on 2 product-day(s)" in text
    assert "Planned maintenance (not counted) on 1 product-day(s): channel on 2026-11-15." in text
    assert "Least available product: search (66.7%)." in text
    assert "channel" not in text.split("Planned maintenance")[0]     # maintenance is no outage
    assert "GREEN days are up, YELLOW days are up but degraded" in text


def test_a_tie_for_least_available_is_reported_as_a_tie():
    h = _days({"local": ["GREEN", "RED", "GREEN", "GREEN"], "message": ["RED", "GREEN", "GREEN", "GREEN"],
               "login": ["GREEN"] * 4})
    text = _paragraph(h)
    assert "Least available products, tied at 75.0%: local and message." in text
    assert "Least available product:" not in text
    three = _days({p: ["RED", "GREEN"] for p in ("a", "b", "c")} | {"d": ["GREEN", "GREEN"]})
    assert "tied at 50.0%: a, b and c." in _paragraph(three)


def test_maintenance_only_is_not_an_outage_and_all_up_says_so():
    h = _days({"channel": ["GREEN", "MAINTENANCE", "GREEN"], "login": ["GREEN"] * 3})
    text = _paragraph(h)
    assert "available 100.0% of the product-days counted (5 of 5)" in text
    assert "There were no outages and no degraded days." in text
    assert "Every product was available on every day counted." in text
    assert "Least available" not in text
    whole = _days({"channel": ["MAINTENANCE", "MAINTENANCE"]})
    av = status_availability(whole)
    assert av["days_up_pct"].isna().all()
    assert "no product-day counted" in _paragraph(whole)


# ---------------------------------------------------------------------------------------------- availability as time
def _week_history(products=("local", "login")) -> pd.DataFrame:
    days = pd.date_range("2026-11-09", periods=7, freq="D", tz="UTC")
    rows = [{"date": d, "productId": p, "productName": {"local": "Local", "login": "Login"}[p], "apiId": None,
             "apiName": None, "status": "GREEN"} for d in days for p in products]
    rows.append({"date": days[2], "productId": "local", "productName": "Local", "apiId": "local_search_keyword",
                 "apiName": "Keyword search", "status": "RED"})
    df = pd.DataFrame(rows)
    df["status"] = pd.Categorical(df["status"], categories=STATUS_ORDER, ordered=True)
    return df


def test_a_two_hour_outage_in_a_week_is_about_99_percent_available():
    from toolkit.reports import UPTIME_DEFINITION, status_uptime, uptime_paragraph

    start, end = pd.Timestamp("2026-11-09", tz="UTC"), pd.Timestamp("2026-11-16", tz="UTC")
    outage = pd.Timestamp("2026-11-11 03:00", tz="UTC")
    incidents = [{"api": "local_search_keyword", "status": "RED", "start": int(outage.timestamp()),
                  "end": int(outage.timestamp()) + 7200},
                 {"api": "local_search_keyword", "status": "YELLOW", "start": int(outage.timestamp()) + 7200,
                  "end": int(outage.timestamp()) + 3 * 3600},
                 {"api": "login_token", "status": "MAINTENANCE", "start": "2026-11-12T01:00:00Z",
                  "end": "2026-11-12T02:00:00Z"},
                 {"api": "local_search_keyword", "status": "RED", "start": "2026-11-20T00:00:00Z",
                  "end": "2026-11-20T05:00:00Z"}]                        # outside the window: not counted
    up = status_uptime(incidents, start, end, _week_history()).set_index("name")
    local = up.loc["Local"]
    assert local["minutes"] == 7 * 1440 and local["down_min"] == 120 and local["degraded_min"] == 60
    assert local["availability_pct"] == round(100 * (7 * 1440 - 120) / (7 * 1440), 2) >= 98
    api = up.loc["Local · Keyword search"]
    assert api["down_min"] == 120 and api["productId"] == "local"
    login = up.loc["Login"]                          # maintenance is not counted: up all the time counted
    assert login["maintenance_min"] == 60 and login["counted_min"] == 7 * 1440 - 60
    assert login["availability_pct"] == 100.0
    text = uptime_paragraph(up.reset_index(), incidents, start, end, window="the week")
    assert "were available 99.40% of the time counted" in text
    assert "Outages (RED): Local · Keyword search 2026-11-11 03:00–05:00 UTC (2 h 00 min)." in text
    assert "Degraded service (YELLOW, counted as up): Local · Keyword search 2026-11-11 05:00–06:00 UTC (1 h 00 min)."\
        in text
    assert "Least available product: Local (98.81%)." in text and "local_search_keyword" not in text
    assert text.endswith(f"({UPTIME_DEFINITION})")


def test_weekly_covers_whole_days_or_the_kst_week(fresh_tk):
    fresh_tk.sandbox.freeze()
    now = pd.Timestamp(fresh_tk.sandbox.clock()["unix"], unit="s", tz="UTC")
    weekly = fresh_tk.status.weekly(days=7)
    assert pd.Timestamp(weekly.end) == now.normalize() and pd.Timestamp(weekly.start) == now.normalize() - pd.Timedelta(
        days=7)
    assert weekly.history["date"].max() < now.normalize()           # today's partial day is not in the day counts
    kst = fresh_tk.status.weekly(week="KST")
    start, end = pd.Timestamp(kst.start).tz_convert("Asia/Seoul"), pd.Timestamp(kst.end).tz_convert("Asia/Seoul")
    assert start.weekday() == 0 and (start.hour, start.minute) == (0, 0) and end - start == pd.Timedelta(days=7)
    assert end <= now.tz_convert("Asia/Seoul") < end + pd.Timedelta(days=7)
    assert kst.window.startswith("the week Monday ") and kst.window.endswith("(KST)")
    assert set(kst.availability["availability_pct"].dropna()) and {"days", "periods"} <= set(kst.tables())
    with pytest.raises(Exception, match="week"):
        fresh_tk.status.weekly(week="UTC")


def test_excel_sheets_fit_their_columns_and_keep_dates_as_dates(tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    table = pd.DataFrame({"day": pd.to_datetime(["2026-11-14", "2026-11-15"]),
                          "at": pd.to_datetime(["2026-11-14 10:30", "2026-11-15 11:00"], utc=True),
                          "a_rather_long_column_name": [1, 2], "지역": ["부산광역시 해운대구", "x"]})
    written = export_frames(tmp_path, {"t": table}, excel=True)
    sheet = openpyxl.load_workbook(written["report.xlsx"])["t"]
    widths = {c: sheet.column_dimensions[c].width for c in "ABCD"}
    assert widths["C"] >= len("a_rather_long_column_name") and widths["D"] >= 2 * len("부산광역시해운대구")
    assert widths["A"] < widths["C"]
    assert sheet["A2"].number_format == "yyyy-mm-dd" and sheet["B2"].number_format == "yyyy-mm-dd hh:mm"


def test_consent_report_of_a_world_without_consents_says_how_to_get_some(fresh_tk):
    from toolkit.errors import ToolkitWarning

    with pytest.warns(ToolkitWarning, match=r"replay_consent_history\(\)"):
        report = fresh_tk.user.consent_report()
    assert report.empty and "replay_consent_history" in report.attrs["meta"]["hint"]


def test_a_report_figure_shows_once_as_a_cells_last_expression(monkeypatch):
    """A figure that is a cell's last expression shows once: its display closes it in pyplot (so the inline
    backend does not show it again when the cell ends) and publishes it, with its text alternative; a closed figure
    shows itself too."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import IPython.display

    import toolkit.plots
    from toolkit.reports import consent_figure, consent_summary

    shown = []
    monkeypatch.setattr(toolkit.plots, "_inline", lambda: True)
    monkeypatch.setattr(IPython.display, "publish_display_data", lambda data, metadata: shown.append((data, metadata)))
    fig = consent_figure(consent_summary(pd.DataFrame({"profile": [True]}, index=[1])))
    fig._ipython_display_()
    assert len(shown) == 1 and not plt.fignum_exists(fig.number)    # shown, and closed for the backend
    data, meta = shown[0]
    assert meta["image/png"]["alt"] == toolkit.plots.alt_text(fig) == data["text/plain"]
    fig._ipython_display_()
    assert len(shown) == 2                   # closed: a later cell's display shows it again
    assert callable(fig._ipython_display_)   # and it stays so


# --------------------------------------------------------------------------- one time zone per report (issue 41.7)
def _columns_by_sheet(path) -> dict[str, list[str]]:
    return {name: list(sheet.columns) for name, sheet in pd.read_excel(path, sheet_name=None).items()}


def test_a_kst_week_is_kst_everywhere_and_shows_no_day_outside_it(fresh_tk, tmp_path):
    """The KST week's report: its days are the seven KST days of the week (not the eight UTC dates it touches),
    in its tables, its heatmap and its paragraph; every time column names KST; the PNG names the window and
    carries the availability; no column name means two things in the workbook."""
    pytest.importorskip("openpyxl")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from PIL import Image

    from toolkit.plots import alt_text

    fresh_tk.sandbox.freeze("2026-11-20T09:00:00Z")
    kst = fresh_tk.status.weekly(week="KST")
    week = [f"11-{d:02d}" for d in range(9, 16)]                         # Monday 9 to Sunday 15 November, in Seoul
    assert kst.tz == "KST" and kst.start.endswith("+09:00") and kst.end.endswith("+09:00")
    assert sorted(kst.daily["date"].dt.strftime("%m-%d").unique()) == week
    assert str(kst.daily["date"].dt.tz) == "Asia/Seoul"
    assert list(kst.incidents.columns[:1]) == ["date_kst"] and set(kst.incidents["date_kst"].str[5:]) <= set(week)
    # the maintenance that began on Sunday 8 November at 16:00 UTC is on Monday 9 November in Seoul
    channel = kst.incidents[kst.incidents["subject"] == "channel"]
    assert list(channel["date_kst"]) == ["2026-11-09"] and list(channel["status"].astype(str)) == ["MAINTENANCE"]
    assert {"start_kst", "end_kst"} <= set(kst.periods.columns) and "start" not in kst.periods
    assert str(kst.periods["start_kst"].dt.tz) == "Asia/Seoul"
    assert "KST" in kst.text and "UTC" not in kst.text
    fig = kst.figure
    try:
        heat = fig.axes[1]
        assert [t.get_text() for t in heat.get_xticklabels()] == week and "KST" in heat.get_xlabel()
        assert kst.window in fig._suptitle.get_text()
        assert "99.83% of the time counted" in fig.axes[0].get_title()
        written = kst.export(tmp_path)
        sheets = _columns_by_sheet(written["status.xlsx"])
        assert list(sheets) == ["about", "availability", "days", "incidents", "periods"]
        about = dict(pd.read_excel(written["status.xlsx"], sheet_name="about").values)
        assert about["time zone"].startswith("KST") and about["window"] == kst.window
        # one measure per name: time in availability_pct, days in days_up_pct, each in one sheet
        assert [s for s, cols in sheets.items() if "availability_pct" in cols] == ["availability"]
        assert [s for s, cols in sheets.items() if "days_up_pct" in cols] == ["days"]
        times = [c for cols in sheets.values() for c in cols if c.startswith(("date", "start", "end"))]
        assert times and all(c.endswith("_kst") for c in times), times
        png = Image.open(written["status.png"])
        assert kst.window in png.text["Description"] and "99.83%" in png.text["Description"]
        assert png.text["Description"] == alt_text(fig)
    finally:
        plt.close(fig)


def test_the_utc_week_and_its_workbook_say_utc(fresh_tk, tmp_path):
    pytest.importorskip("openpyxl")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fresh_tk.sandbox.freeze("2026-11-20T09:00:00Z")
    utc = fresh_tk.status.weekly(days=7)
    try:
        sheets = _columns_by_sheet(utc.export(tmp_path)["status.xlsx"])
        times = [c for cols in sheets.values() for c in cols if c.startswith(("date", "start", "end"))]
        assert sorted(times) == ["date_utc", "end_utc", "start_utc"]
        assert [t.get_text() for t in utc.figure.axes[1].get_xticklabels()] == [f"11-{d}" for d in range(13, 20)]
        assert "UTC" in utc.figure.axes[1].get_xlabel() and "KST" not in utc.text
    finally:
        plt.close("all")


def test_status_daily_puts_an_incident_on_its_kst_days():
    from toolkit.reports import status_daily

    h = _week_history()
    incidents = [{"api": "local_search_keyword", "status": "RED", "start": "2026-11-10T14:00:00Z",
                  "end": "2026-11-10T16:00:00Z"},                       # 23:00–01:00 KST: two KST days
                 {"api": "login_token", "status": "MAINTENANCE", "start": "2026-11-08T16:00:00Z",
                  "end": "2026-11-08T19:00:00Z"}]                       # Sunday in UTC, Monday 01:00 in Seoul
    daily = status_daily(incidents, "2026-11-08T15:00:00Z", "2026-11-15T15:00:00Z", h, tz="KST")
    days = daily.assign(day=daily["date"].dt.strftime("%m-%d"))
    assert sorted(days["day"].unique()) == [f"11-{d:02d}" for d in range(9, 16)]
    red = days[(days["productId"] == "local") & days["apiId"].isna() & (days["status"] == "RED")]["day"]
    assert list(red) == ["11-10", "11-11"]
    api = days[days["apiId"] == "local_search_keyword"]
    assert list(api["day"]) == ["11-10", "11-11"] and api["apiName"].iloc[0] == "Keyword search"
    login = days[(days["productId"] == "login") & days["apiId"].isna()].set_index("day")["status"].astype(str)
    assert login["11-09"] == "MAINTENANCE" and (login.drop("11-09") == "GREEN").all()
    with pytest.raises(Exception, match="midnight in KST"):
        status_daily(incidents, "2026-11-08T00:00:00Z", "2026-11-15T00:00:00Z", h, tz="KST")


def test_a_kst_report_needs_the_incidents(fresh_tk):
    from toolkit.errors import ParameterError

    with pytest.raises(ParameterError, match="UTC days only"):
        status_weekly(current(), history(), None, tz="KST")
    fresh_tk.sandbox.freeze("2026-11-20T09:00:00Z")
    fresh_tk.sandbox = None          # as on the real service: no incidents to read
    with pytest.raises(ParameterError, match="week"):
        fresh_tk.status.weekly(week="KST")


# -------------------------------------------------------------------------- consent: agreed ÷ asked (issue 41.7)
def test_the_sandbox_logs_declines_on_the_consent_screen_and_sends_no_webhook_for_them(fresh_tk):
    """Optional items left unticked and a cancelled screen are declines in the consent log (the platform sends no
    event for them, so no webhook is made); the report's rate is then agreed ÷ asked."""
    fresh_tk.sandbox.freeze()
    with fresh_tk.events.inbox() as inbox:
        inbox.register(fresh_tk)
        _decline_and_check(fresh_tk, inbox)


def _decline_and_check(fresh_tk, inbox):
    from toolkit.errors import RedirectError
    from toolkit.reports import consent_events_frame, consent_summary

    wanted = ["profile", "openid", "account_email", "friends", "gender"]
    fresh_tk.oauth.login("minji@sandbox.test", scopes=wanted, optional=["account_email"])
    with pytest.raises(RedirectError, match="access_denied"):
        fresh_tk.oauth.login(user_id=4100000002, scopes=wanted, agree=False)
    fresh_tk.oauth.login(user_id=4100000003, scopes=wanted)
    fresh_tk.user.revoke_scopes(["account_email"], target_id=4100000003)     # a revoke later: a withdrawal
    log = fresh_tk.sandbox.consent_events()
    declines = [(e["user_id"], e["scopes"], e["detail"]["how"]) for e in log if e["type"] == "scope_decline"]
    assert declines == [(4100000001, "friends gender", "unticked"), (4100000002, " ".join(wanted), "cancelled")]
    # every other row of the log is a webhook; a decline is none (the platform has no such event)
    sent = [e for e in log if e["type"] in ("linked", "scope_consent", "scope_withdraw")]
    assert inbox.wait(len(sent), timeout=10)
    assert len(inbox) == len(sent) == 5
    events = consent_events_frame(log)
    assert events.attrs["declines"] is True
    s = consent_summary(fresh_tk.user.consent_report(), events=events).set_index("scope")
    # two linked users (준호 cancelled: never linked); friends: 서연 agrees, 민지 declined → 1 of 2
    assert s.loc["friends", ["linked", "n", "agreed", "declined", "withdrew"]].tolist() == [2, 2, 1, 1, 0]
    assert s.loc["friends", "rate_pct"] == 50.0
    assert s.loc["account_email", ["n", "agreed", "declined", "withdrew"]].tolist() == [2, 1, 0, 1]
    assert "asked" in s.attrs["n"]


def test_consent_rates_from_the_platforms_webhooks_say_they_count_the_users_who_ever_agreed():
    """The service's consent events tell no decline: from them n is 'ever agreed' and the summary says so; an
    app's own decline records make it 'asked' again."""
    from toolkit.reports import CONSENT_N, consent_events_frame, consent_summary

    report = pd.DataFrame({"friends": [True, False, False]}, index=[1, 2, 3])
    inbox = pd.DataFrame([{"event_type": "User Scope Consent", "user_id": u, "members": {"scope": "friends"},
                           "toe": 1795165200} for u in (1, 2)]
                         + [{"event_type": "User Scope Withdraw", "user_id": 2, "members": {"scope": "friends"},
                             "toe": 1795165260}])
    events = consent_events_frame(inbox)
    assert events.attrs["declines"] is False
    s = consent_summary(report, events=events)
    row = s.set_index("scope").loc["friends"]
    assert (row["n"], row["agreed"], row["withdrew"], row["rate_pct"]) == (2, 1, 1, 50.0) and pd.isna(row["declined"])
    assert s.attrs["n_counts"] == "ever agreed" and s.attrs["n"] == CONSENT_N["ever agreed"]
    assert "not agreed ÷ asked" in s.attrs["n"]
    own = consent_events_frame([{"type": "scope_decline", "user_id": 3, "scopes": ["friends"], "at": 1795165300}],
                               declines=True)
    both = pd.concat([events, own], ignore_index=True).sort_values("at")
    both.attrs["declines"] = True
    row = consent_summary(report, events=both).set_index("scope").loc["friends"]
    assert (row["n"], row["declined"], row["rate_pct"]) == (3, 1, 33.3)


def test_the_replayed_week_rates_agreed_over_asked(fresh_tk):
    """07's consent data: the sign-up screen asked for the optional items and most users left some unticked, so no
    optional item reads 100 % 'n of n' any more (it did when n counted only the users who ever agreed)."""
    from toolkit.reports import consent_events_frame, consent_summary

    fresh_tk.sandbox.freeze("2026-11-20T09:00:00Z")
    fresh_tk.sandbox.replay_consent_history()
    report = fresh_tk.user.consent_report()
    s = consent_summary(report, events=consent_events_frame(fresh_tk.sandbox.consent_events())).set_index("scope")
    assert list(s.index[s["rate_pct"] == 100]) == ["openid", "profile"]            # the required items only
    assert s.loc["shipping_address", ["n", "agreed", "declined"]].tolist() == [9, 3, 6]
    assert s.loc["account_email", ["n", "agreed", "declined", "withdrew"]].tolist() == [9, 7, 1, 1]
    assert (s["n"] == s["agreed"] + s["declined"] + s["withdrew"]).all()
    assert s.loc["talk_chats", "n"] == 0 and pd.isna(s.loc["talk_chats", "rate_pct"])
