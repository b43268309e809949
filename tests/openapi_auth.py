"""The ``Authorization`` header an operation of the sandbox's OpenAPI document needs, from its security scheme:
shared by the schemathesis fuzz (tests/contract) and the hostile-input suite (tests/hostile)."""
from __future__ import annotations


def auth_headers(security: list | None, app: dict, token: str, business_token: str | None = None) -> dict[str, str]:
    """``{"Authorization": ...}`` for the first scheme of ``security`` (an operation's ``security`` list), or ``{}``
    for an operation that takes no credential."""
    if not security:
        return {}
    scheme = next(iter(security[0]))
    return {"Authorization": {
        "BearerToken": f"Bearer {token}", "BusinessToken": f"Bearer {business_token or token}",
        "RestApiKey": f"ServiceAK {app['rest_api_key']}", "AdminKey": f"ServiceAK {app['admin_key']}",
        "AnyAppKey": f"ServiceAK {app['rest_api_key']}"}[scheme]}
