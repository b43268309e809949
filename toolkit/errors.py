"""Typed errors for the four error shapes of the spec, plus client-side and transport errors.

Shapes (identity.md §7):

1. API error ``{"msg": ..., "code": -N}``                       → :class:`ApiError` (and subclasses by code)
2. OAuth-style ``{"error", "error_description", "error_code"}`` → :class:`OAuthError`
3. Redirect error (``error``, ``error_description``, ``state`` in a redirect query) → :class:`RedirectError`
4. Webhook validation ``{"err", "description"}``                 → :class:`WebhookValidationError`

Use :func:`error_from_response` to turn an HTTP answer into the right exception.

>>> err = error_from_response(400, {"code": -10, "msg": "API limit has been exceeded."})
>>> type(err).__name__, err.code
('QuotaExceeded', -10)
"""
from __future__ import annotations

from typing import Any, Mapping
from urllib.parse import parse_qs, urlsplit

__all__ = [
    "ToolkitError", "ParameterError", "ApiError", "QuotaExceeded", "InvalidTokenError", "InvalidArgumentError",
    "PermissionDeniedError", "NotFoundError", "OAuthError", "TokenRateLimited", "RedirectError",
    "WebhookValidationError", "TransportError", "RetryBudgetExceeded", "error_from_response", "redirect_error",
    "hint_for",
]

# One-line hints for the codes a learner meets most (the README's troubleshooting table says more).
HINTS: dict[str | int, str] = {
    -1: "internal error of the service; retry later",
    -2: "a parameter is wrong or names something the app has not configured (check ids, tags, scopes)",
    -3: "not allowed: the scope/term is not revocable, or the app lacks the permission",
    -10: "API quota exhausted: wait for the quota to reset or lower the request rate",
    -101: "the user is not linked to the app",
    -401: "the access token is missing, expired or revoked: log in again or refresh the token",
    -402: "the user has not consented to the scope this call needs: request additional consent",
    -501: "the user is not a messenger user",
    -532: "daily message quota of the app is used up",
    -601: "the user is not a story user",
    -602: "image upload failed or an image path is invalid",
    -603: "the story request is invalid or timed out",
    "KOE006": "redirect_uri is not registered for the app: register it or use a registered one",
    "KOE237": "token issuance rate limit exceeded: wait before requesting new tokens",
    "KOE320": "the authorization code is invalid, expired or already used: log in again",
    "KOE400": "the ID token is malformed",
    "KOE010": "client_secret is missing or wrong",
    "invalid_grant": "the code or refresh token is invalid or expired: log in again",
    "access_denied": "the user cancelled on the consent screen",
    "consent_required": "prompt=none was used for a user not linked to the app",
}


def hint_for(key: str | int | None) -> str:
    return HINTS.get(key, "") if key is not None else ""


class ToolkitError(Exception):
    """Base of every error raised by the toolkit."""


class ParameterError(ToolkitError, ValueError):
    """A parameter broke a bound of the spec; raised before any request is sent.

    >>> raise ParameterError("size", "must be 1 to 30", 99)
    Traceback (most recent call last):
    ...
    toolkit.errors.ParameterError: size=99: must be 1 to 30
    """

    def __init__(self, name: str, rule: str, value: Any = None):
        self.name, self.rule, self.value = name, rule, value
        shown = "" if value is None else f"={value!r}"
        super().__init__(f"{name}{shown}: {rule}")


class _HttpError(ToolkitError):
    status: int | None
    endpoint: str | None

    def _where(self) -> str:
        parts = []
        if self.status is not None:
            parts.append(f"HTTP {self.status}")
        if self.endpoint:
            parts.append(self.endpoint)
        return f" [{' '.join(parts)}]" if parts else ""


class ApiError(_HttpError):
    """Shape 1: ``{"msg": String, "code": Integer}`` with a negative code."""

    def __init__(self, code: int | None, msg: str, status: int | None = None, endpoint: str | None = None,
                 body: Any = None, headers: Mapping[str, str] | None = None):
        self.code, self.msg, self.status, self.endpoint = code, msg, status, endpoint
        self.body, self.headers = body, dict(headers or {})
        self.hint = hint_for(code)
        text = f"{msg} (code {code}){self._where()}"
        if self.hint:
            text += f" — hint: {self.hint}"
        super().__init__(text)


class QuotaExceeded(ApiError):
    """Code -10: the API quota is used up (HTTP 400). Never retried automatically."""


class InvalidTokenError(ApiError):
    """Code -401: the access token is missing, invalid or expired (HTTP 401)."""


class InvalidArgumentError(ApiError):
    """Code -2: a parameter names nothing the service knows."""


class PermissionDeniedError(ApiError):
    """Code -3 and other permission errors (HTTP 403)."""


class NotFoundError(ApiError):
    """HTTP 404 without a spec error body (wrong base URL or path)."""


_CODE_CLASSES: dict[int, type[ApiError]] = {
    -10: QuotaExceeded, -401: InvalidTokenError, -2: InvalidArgumentError, -3: PermissionDeniedError,
}


class OAuthError(_HttpError):
    """Shape 2: ``{"error", "error_description", "error_code"}`` from the auth host."""

    def __init__(self, error: str, error_description: str = "", error_code: str | None = None,
                 status: int | None = None, endpoint: str | None = None):
        self.error, self.error_description, self.error_code = error, error_description, error_code
        self.status, self.endpoint = status, endpoint
        self.hint = hint_for(error_code) or hint_for(error)
        code = f" {error_code}" if error_code else ""
        text = f"{error}{code}: {error_description}{self._where()}"
        if self.hint:
            text += f" — hint: {self.hint}"
        super().__init__(text)


class TokenRateLimited(OAuthError):
    """KOE237: the token issuance rate limit is exceeded."""


class RedirectError(ToolkitError):
    """Shape 3: an error carried in the query of a redirect to ``redirect_uri``."""

    def __init__(self, error: str, error_description: str = "", state: str | None = None):
        self.error, self.error_description, self.state = error, error_description, state
        self.hint = hint_for(error)
        text = f"{error}: {error_description}"
        if self.hint:
            text += f" — hint: {self.hint}"
        super().__init__(text)


class WebhookValidationError(_HttpError):
    """Shape 4: a webhook receiver refused a SET with ``{"err", "description"}`` (HTTP 400)."""

    def __init__(self, err: str, description: str = "", status: int | None = 400, endpoint: str | None = None):
        self.err, self.description, self.status, self.endpoint = err, description, status, endpoint
        super().__init__(f"{err}: {description}{self._where()}")


class TransportError(ToolkitError):
    """The service could not be reached or did not answer in time (after any safe retries)."""

    def __init__(self, message: str, endpoint: str | None = None, attempts: int = 1):
        self.endpoint, self.attempts = endpoint, attempts
        where = f" [{endpoint}]" if endpoint else ""
        super().__init__(f"{message}{where} after {attempts} attempt(s)")


class RetryBudgetExceeded(TransportError):
    """Retries stopped because the total time cap of the call was reached."""


def error_from_response(status: int, body: Any, *, endpoint: str | None = None,
                        headers: Mapping[str, str] | None = None) -> ToolkitError:
    """The exception for a non-2xx answer whose JSON body is ``body`` (a dict, or text when not JSON)."""
    if isinstance(body, Mapping):
        if "err" in body and "description" in body:
            return WebhookValidationError(str(body["err"]), str(body["description"]), status, endpoint)
        if "error" in body:
            code = body.get("error_code")
            cls = TokenRateLimited if code == "KOE237" else OAuthError
            return cls(str(body["error"]), str(body.get("error_description", "")), code, status, endpoint)
        if "code" in body and ("msg" in body or "message" in body):
            code = body["code"]
            try:
                code = int(code)
            except (TypeError, ValueError):
                pass
            cls = _CODE_CLASSES.get(code, ApiError) if isinstance(code, int) else ApiError
            if cls is ApiError and status == 403:
                cls = PermissionDeniedError
            return cls(code, str(body.get("msg", body.get("message", ""))), status, endpoint, body, headers)
    text = body if isinstance(body, str) else repr(body)
    text = (text or "").strip().replace("\n", " ")[:200] or "no body"
    cls = NotFoundError if status == 404 else ApiError
    return cls(None, f"unexpected answer: {text}", status, endpoint, body, headers)


def redirect_error(url: str) -> RedirectError | None:
    """The :class:`RedirectError` carried by a redirect URL, or None when it carries a code.

    >>> redirect_error("http://localhost/cb?error=access_denied&error_description=User%20denied&state=s1").state
    's1'
    """
    query = parse_qs(urlsplit(url).query)
    if "error" not in query:
        return None
    first = lambda k: query.get(k, [None])[0]  # noqa: E731
    return RedirectError(first("error"), first("error_description") or "", first("state"))
