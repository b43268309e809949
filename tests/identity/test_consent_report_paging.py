"""consent_report() reads every linked user: it follows the pages of GET /v1/user/ids (100 ids a page) instead
of stopping at the first page."""
from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import httpx

from toolkit.client import Client
from toolkit.config import Config, Credentials, Hosts

USERS = list(range(1, 251))          # 250 linked users: three pages of ids


def handler(request: httpx.Request) -> httpx.Response:
    query = parse_qs(urlparse(str(request.url)).query)
    if request.url.path.endswith("/v1/user/ids"):
        start = int(query.get("from_id", ["0"])[0])
        rest = [u for u in USERS if u > start]
        page = rest[:100]
        after = f"http://svc.test/api/v1/user/ids?from_id={page[-1]}" if len(rest) > 100 else None
        return httpx.Response(200, json={"elements": page, "total_count": len(USERS), "after_url": after,
                                         "before_url": None})
    if request.url.path.endswith("/v2/user/scopes"):
        uid = int(query["target_id"][0])
        return httpx.Response(200, json={"id": uid, "scopes": [
            {"id": "profile", "display_name": "profile", "type": "PRIVACY", "using": True, "agreed": True},
            {"id": "account_email", "display_name": "e-mail", "type": "PRIVACY", "using": True,
             "agreed": uid % 5 == 0}]})
    return httpx.Response(404, json={"msg": "no such API", "code": -404})


def test_consent_report_pages_through_every_user():
    config = Config(hosts=Hosts.on_one_port("http://svc.test"),
                    credentials=Credentials(rest_api_key="rest-key-0001", admin_key="admin-key-0001"))
    with Client(config, transport=httpx.MockTransport(handler)) as tk:
        report = tk.user.consent_report()
    assert list(report.index) == USERS
    assert report.attrs["meta"]["users"] == 250
    assert report["profile"].all()
    assert report["account_email"].sum() == 50
    assert report.attrs["meta"]["agreement_rate"]["account_email"] == 0.2
