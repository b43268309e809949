"""Issuing and revoking a business token sends the Business Token Issued/Revoked SETs."""
from __future__ import annotations

import time

import toolkit.events as events


def test_business_token_sets_reach_the_inbox(fresh_tk):
    tk = fresh_tk
    with events.inbox(tk) as inbox:
        inbox.register(tk)
        tk.business.login("minji@sandbox.test", scopes=["keyword_manage", "keyword_report"])
        tk.business.revoke()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            df = inbox.frame()
            kinds = set(df["event_type"]) if len(df) else set()
            if {"Business Token Issued", "Business Token Revoked"} <= kinds:
                break
            time.sleep(0.1)
        df = inbox.frame()
        business = df[df["event_type"].isin(["Business Token Issued", "Business Token Revoked"])]
        assert list(business["event_type"]) == ["Business Token Issued", "Business Token Revoked"]
        assert business["verified"].all()
