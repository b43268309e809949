"""Typed errors for the four error shapes of the spec, plus client-side and transport errors.

Shapes (identity §7):

1. API error ``{"msg": ..., "code": -N}``                       → :class:`ApiError` (and subclasses by code)
2. OAuth-style ``{"error", "error_description", "error_code"}`` → :class:`OAuthError`
3. Redirect error (``error``, ``error_description``, ``state`` in a redirect query) → :class:`RedirectError`
4. Webhook validation ``{"err", "description"}``                 → :class:`WebhookValidationError`

Use :func:`error_from_response` to turn an HTTP answer into the right exception. Every error carries a
one-line ``hint`` that points at the real fix; the hint of a -401 depends on what the call presented (an app
key, the admin key or a user's access token), so a wrong app key is never answered with "log in again":

>>> err = error_from_response(400, {"code": -10, "msg": "API limit has been exceeded."})
>>> type(err).__name__, err.code
('QuotaExceeded', -10)
>>> error_from_response(401, {"code": -401, "msg": "invalid app key"}, auth="app_key").hint[:33]
'the app key (REST API key) was re'
"""
from __future__ import annotations

from typing import Any, Mapping
from urllib.parse import parse_qs, urlsplit

__all__ = [
    "ToolkitError", "ParameterError", "ApiError", "QuotaExceeded", "InvalidTokenError", "InvalidArgumentError",
    "PermissionDeniedError", "NotFoundError", "OAuthError", "TokenRateLimited", "RedirectError",
    "WebhookValidationError", "TransportError", "RetryBudgetExceeded", "error_from_response", "redirect_error",
    "hint_for", "ConfigurationError", "ConsentRequiredError", "AUTH_KINDS", "ToolkitWarning", "TruncatedWarning",
    "OutsideSandboxCityWarning", "OutOfRadiusWarning", "NoRouteWarning", "QuotaStopWarning",
    "show_warnings_as_learners_read_them", "warn_truncated",
    "suggest", "closed_set_error", "transport_hint",
]

AUTH_KINDS = ("none", "app_key", "admin_key", "user_token")
"""What a call presented: nothing, ``ServiceAK <REST API key>``, ``ServiceAK <admin key>`` (possibly with a
target user), or ``Bearer <access token>``."""

# One-line hints for the codes a learner meets most (notebooks/reference/errors.md says more).
# A key is a code or an error value, or (code, auth) for a code whose hint depends on what the call presented.
HINTS: dict[str | int | tuple[str | int, str | None], str] = {
    -1: "internal error of the service; retry later",
    -2: "a parameter is wrong or names something the app has not configured (check ids, tags, scopes)",
    -3: "not allowed: the scope/term is not revocable, or the app lacks the permission",
    -10: "API quota exhausted: wait for the quota to reset or lower the request rate",
    -101: "the user is not linked to the app",
    -401: "the access token is missing, expired or revoked: log in again or refresh the token",
    (-401, "user_token"): "the user's access token is missing, expired or revoked: log in again (tk.login(...)) "
                          "or refresh it (tk.oauth.refresh())",
    (-401, "app_key"): "the app key (REST API key) was refused: check rest_api_key= of connect() or "
                       "TOOLKIT_REST_API_KEY (the REST API key of this app, not another key kind), and the word "
                       "sent before it (app_key_scheme= / TOOLKIT_APP_KEY_SCHEME: ServiceAK, or e.g. KakaoAK where "
                       "the service expects it); no login helps",
    (-401, "admin_key"): "the admin key was refused: check admin_key= of connect() or TOOLKIT_ADMIN_KEY (the "
                         "admin key of this app); no login helps",
    -402: "the user has not consented to the scope this call needs: ask for additional consent "
          "(tk.login(scopes=[...]) with the missing scope); logging in again without it does not help",
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
    "invalid_scope": "a scope id is unknown or not a consent item of the app: check the spelling against "
                     "tk.user.scopes() (e.g. 'profile', 'account_email', 'openid') and the app's consent items",
}


# Hints for one message of a code whose general hint would mislead (message fragment → hint).
MESSAGE_HINTS: dict[str, str] = {
    "departure_time must not be in the past": "departure_time is read as Korean time (KST, UTC+9) and must not be "
    "before the service's clock (the sandbox's: tk.sandbox.clock()); give a later time, e.g. "
    "datetime.now(ZoneInfo('Asia/Seoul')) + timedelta(hours=1), or the text 'yyyyMMddHHmm' in KST",
}


def hint_for(key: str | int | None, auth: str | None = None, msg: str | None = None) -> str:
    """The one-line hint of an error code or value; ``auth`` (one of :data:`AUTH_KINDS`) picks the hint
    of a code whose fix depends on what the call presented (-401).

    >>> hint_for(-10)[:20], hint_for(-402)[:33]
    ('API quota exhausted:', 'the user has not consented to the')
    """
    if msg:
        for fragment, hint in MESSAGE_HINTS.items():
            if fragment in msg:
                return hint
    if key is None:
        return ""
    return HINTS.get((key, auth), "") or HINTS.get(key, "")


def _auth_from_headers(headers: Mapping[str, str] | None) -> str | None:
    """The credential kind a 401 answer names in ``WWW-Authenticate`` (``Bearer`` or ``ServiceAK``)."""
    value = next((v for k, v in (headers or {}).items() if k.lower() == "www-authenticate"), "")
    if value.startswith("Bearer"):
        return "user_token"
    if value.startswith("ServiceAK") or value.startswith("KakaoAK"):
        return "app_key"
    return None

# Set to True to see the toolkit's own frames when one of its errors reaches a notebook.
SHOW_INTERNALS = False
_PACKAGE_DIR = __file__.rsplit("/", 1)[0].rsplit("/", 1)[0] + "/"


class ToolkitError(Exception):
    """Base of every error raised by the toolkit.

    In IPython and Jupyter a toolkit error shows as its message and the place in the toolkit that raised it,
    not as a traceback through the toolkit's internals (which tell a learner nothing about the fix); set
    ``toolkit.errors.SHOW_INTERNALS = True`` to see the whole traceback.

    >>> err = ParameterError("size", "must be 1 to 30", 99)
    >>> err._render_traceback_()[-1].endswith("ParameterError\x1b[39m: size=99: must be 1 to 30")
    True
    """

    def _render_traceback_(self) -> list[str]:
        """IPython's hook: the lines shown in place of a traceback (IPython calls it when it exists)."""
        import traceback

        if SHOW_INTERNALS:
            try:
                from IPython import get_ipython

                return get_ipython().InteractiveTB.structured_traceback(type(self), self, self.__traceback__)
            except Exception:  # no IPython shell: the plain traceback
                return traceback.format_exception(self)

        lines = []
        inside = [(frame.f_code, lineno) for frame, lineno in traceback.walk_tb(self.__traceback__)
                  if frame.f_code.co_filename.startswith(_PACKAGE_DIR)]
        if inside:
            code, lineno = inside[-1]
            rel = code.co_filename[len(_PACKAGE_DIR):]
            lines.append(f"raised in {rel}:{lineno} ({code.co_qualname}); "
                         "toolkit.errors.SHOW_INTERNALS = True shows the whole traceback")
        lines.append(f"\x1b[31m{type(self).__name__}\x1b[39m: {self}")
        return lines


class ConfigurationError(ToolkitError):
    """The client lacks a credential or a setting the call needs."""


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
    attempts: int
    """How many attempts the call made: set by :mod:`toolkit.http` on an error answer it retried (a 429 or 5xx)."""

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
                 body: Any = None, headers: Mapping[str, str] | None = None, auth: str | None = None):
        self.code, self.msg, self.status, self.endpoint = code, msg, status, endpoint
        self.body, self.headers = body, dict(headers or {})
        self.auth = auth or _auth_from_headers(self.headers)
        self.hint = hint_for(code, self.auth, msg if isinstance(msg, str) else None)
        text = f"{msg} (code {code}){self._where()}"
        if self.hint:
            text += f" — hint: {self.hint}"
        super().__init__(text)


class QuotaExceeded(ApiError):
    """Code -10: the API quota is used up (HTTP 400). Never retried automatically."""


class InvalidTokenError(ApiError):
    """Code -401: the credential was refused (HTTP 401) — a user's access token, or an app key; ``auth``
    says which and the hint names the fix."""


class InvalidArgumentError(ApiError):
    """Code -2: a parameter names nothing the service knows."""


class PermissionDeniedError(ApiError):
    """Code -3 and other permission errors (HTTP 403)."""


class ConsentRequiredError(PermissionDeniedError):
    """Code -402: the user has not consented to a scope the call needs (request additional consent)."""


class NotFoundError(ApiError):
    """HTTP 404 without a spec error body (wrong base URL or path)."""


_CODE_CLASSES: dict[int, type[ApiError]] = {
    -10: QuotaExceeded, -401: InvalidTokenError, -402: ConsentRequiredError, -2: InvalidArgumentError,
    -3: PermissionDeniedError,
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
    """The service could not be reached or did not answer in time (after any safe retries). ``hint`` says what
    to check: for a sandbox, whether it still runs; for a real service, the base URL, the network, ``timeout=``.

    >>> str(TransportError("could not reach the service", "status.current", 4, hint="check the network"))
    'could not reach the service [status.current] after 4 attempt(s) — hint: check the network'
    """

    def __init__(self, message: str, endpoint: str | None = None, attempts: int = 1, hint: str = ""):
        self.endpoint, self.attempts, self.hint = endpoint, attempts, hint
        where = f" [{endpoint}]" if endpoint else ""
        text = f"{message}{where} after {attempts} attempt(s)"
        super().__init__(f"{text} — hint: {hint}" if hint else text)


def transport_hint(base_url: str, sandbox: bool, timed_out: bool = False) -> str:
    """What to check when ``base_url`` could not be reached: a sandbox (``sandbox=True``) or a real service.

    >>> transport_hint("http://127.0.0.1:8000", True)[:47]
    'is the sandbox at http://127.0.0.1:8000 running'
    """
    if sandbox:
        return (f"is the sandbox at {base_url} running? A sandbox started by a notebook's toolkit.connect() stops "
                "with its kernel, and `toolkit sandbox` with its terminal: toolkit.connect() starts a new one "
                "(connect(shared=True) binds to the lab's, TOOLKIT_SANDBOX_URL)")
    slow = "; the service was slow: raise timeout= / total_timeout= of connect()" if timed_out else \
        "; timeout= / total_timeout= of connect() bound each call"
    return (f"check the base URL ({base_url}: connect()'s hosts or the TOOLKIT_*_URL variables), the network "
            f"(proxy, firewall, DNS){slow}")


class RetryBudgetExceeded(TransportError):
    """Retries stopped because the total time cap of the call was reached."""


# ---------------------------------------------------------------------- warnings
class ToolkitWarning(UserWarning):
    """Base of the toolkit's warnings: the call worked, but its answer is not what it may look like."""


class TruncatedWarning(ToolkitWarning):
    """A helper returned fewer rows than the platform's total (a page limit or ``max_pages`` stopped it);
    the frame's ``attrs["truncated"]`` holds ``returned``, ``total`` and ``hint``."""


class QuotaStopWarning(ToolkitWarning):
    """A bulk run (``geocode``, ``regions_of``, the sweeps, ``navi.matrix``) stopped at the API quota (code -10):
    the rows not answered are marked, and the message says how to resume."""


def show_warnings_as_learners_read_them() -> None:
    r"""Show the toolkit's warnings as ``TruncatedWarning: <message>``: their category and message, without the
    file and line of the notebook cell (a temporary file of the kernel, which tells a learner nothing and differs
    from run to run). Other warnings keep Python's format. ``toolkit.connect()`` calls this in a Jupyter kernel.

    >>> import warnings
    >>> show_warnings_as_learners_read_them()
    >>> warnings.formatwarning("45 of 576", TruncatedWarning, "/tmp/ipykernel_1/2.py", 3)
    'TruncatedWarning: 45 of 576\n'
    """
    import warnings

    if getattr(warnings.formatwarning, "_toolkit", False):
        return
    original = warnings.formatwarning

    def formatwarning(message, category, filename, lineno, line=None):
        if isinstance(category, type) and issubclass(category, ToolkitWarning):
            return f"{category.__name__}: {message}\n"
        return original(message, category, filename, lineno, line)

    formatwarning._toolkit = True  # type: ignore[attr-defined]  # a marker attribute on a function: not typeable
    warnings.formatwarning = formatwarning


class OutsideSandboxCityWarning(ToolkitWarning):
    """A call about a point outside the sandbox's city (the sandbox's world is one city; the real service
    answers for its whole country): the (empty) answer is not a fact about that place."""


class OutOfRadiusWarning(ToolkitWarning):
    """A many-origin or many-destination route call (``navi.origins``, ``navi.destinations``, ``navi.matrix``) left
    out points farther than ``radius`` (at most 10 km) from the centre: their rows have no route (result_code 207 or
    304). ``navi.matrix`` counts them in ``attrs["matrix"]["beyond_radius"]``."""


class NoRouteWarning(ToolkitWarning):
    """A route call answered without a route for some of its routes or points (a ``result_code`` other than 0: no
    road near a point, points within 5 m of each other, every way blocked by ``avoid``, ...): the warning says how
    many, which and why, in English beside the service's Korean ``result_msg`` (``result_msg_en`` in the frames)."""


def _user_stacklevel() -> int:
    """The ``stacklevel`` of a warning that points at the first caller outside this package."""
    import sys
    from types import FrameType

    inside = __file__.rsplit("/", 1)[0] + "/"     # the toolkit package's folder
    frame: FrameType | None = sys._getframe(2)
    level = 2
    while frame is not None and frame.f_code.co_filename.startswith(inside):
        frame, level = frame.f_back, level + 1
    return level


def warn_truncated(df, what: str, returned: int, total: int | None, hint: str, category=None):
    """Record in ``df.attrs["truncated"]`` and warn (:class:`TruncatedWarning`) that ``what`` returned
    ``returned`` of ``total`` rows (``total`` None: unknown, more exist); ``hint`` says what to do instead.
    Returns ``df``.

    >>> import pandas as pd, warnings
    >>> with warnings.catch_warnings(record=True) as seen:
    ...     warnings.simplefilter("always")
    ...     df = warn_truncated(pd.DataFrame({"a": [1]}), "keyword_all", 1, 9, "use a sweep")
    >>> df.attrs["truncated"], str(seen[0].message)
    ({'returned': 1, 'total': 9, 'hint': 'use a sweep'}, 'keyword_all returned 1 of 9 rows: use a sweep')
    """
    import warnings

    of = f"{returned} of {total} rows" if total is not None else f"{returned} rows and stopped before the end"
    df.attrs["truncated"] = {"returned": int(returned), "total": None if total is None else int(total), "hint": hint}
    warnings.warn(f"{what} returned {of}: {hint}", category or TruncatedWarning, stacklevel=_user_stacklevel())
    return df


def suggest(value, valid, cutoff: float = 0.6) -> str | None:
    """The valid value nearest to ``value`` (case-insensitive, by :func:`difflib.get_close_matches` with
    ``cutoff``), or None.

    >>> suggest("profle", ["profile", "account_email", "openid"])
    'profile'
    """
    import difflib

    valid = [str(v) for v in valid]
    lowered = {v.lower(): v for v in valid}
    found = difflib.get_close_matches(str(value).lower(), list(lowered), n=1, cutoff=cutoff)
    return lowered[found[0]] if found else None


def closed_set_error(name: str, value, valid, what: str | None = None) -> "ParameterError":
    """A :class:`ParameterError` for a value outside a closed set: names the value, the nearest valid one and
    the valid ones.

    >>> str(closed_set_error("scopes", "profle", ["profile", "openid"], "a scope id"))
    "scopes='profle': 'profle' is not a scope id; did you mean 'profile'? Valid: profile, openid"
    """
    near = suggest(value, valid)
    valid = [str(v) for v in valid]
    shown = ", ".join(valid) if len(valid) <= 40 else ", ".join(valid[:40]) + f", … ({len(valid)} in all)"
    mean = f"; did you mean {near!r}?" if near is not None else "."
    return ParameterError(name, f"{str(value)!r} is not {what or 'valid'}{mean} Valid: {shown}", value)


def error_from_response(status: int, body: Any, *, endpoint: str | None = None,
                        headers: Mapping[str, str] | None = None,
                        auth: str | None = None) -> ApiError | OAuthError | WebhookValidationError:
    """The exception for a non-2xx answer whose JSON body is ``body`` (a dict, or text when not JSON);
    ``auth`` is what the call presented (:data:`AUTH_KINDS`), for the hint."""
    if isinstance(body, Mapping):
        if "err" in body and "description" in body:
            return WebhookValidationError(str(body["err"]), str(body["description"]), status, endpoint)
        if "error" in body:
            code = body.get("error_code")
            oauth_cls = TokenRateLimited if code == "KOE237" else OAuthError
            return oauth_cls(str(body["error"]), str(body.get("error_description", "")), code, status, endpoint)
        if "errorType" in body and "code" not in body:
            # another deployment's shape: {"errorType": "AccessDeniedError", "message": "cannot find appKey"}; a
            # refused credential is the spec's -401 (same class and hint), anything else keeps its own words
            kind, message = str(body.get("errorType", "")), str(body.get("message", ""))
            refused = status == 401 or kind in ("AccessDeniedError", "UnauthorizedError")
            if refused:
                auth = auth or ("app_key" if "appkey" in message.lower().replace(" ", "") else None)
                return InvalidTokenError(-401, f"{kind}: {message}", status, endpoint, body, headers, auth)
            api_cls: type[ApiError] = NotFoundError if status == 404 else ApiError
            return api_cls(None, f"{kind}: {message}", status, endpoint, body, headers, auth)
        if "code" in body and ("msg" in body or "message" in body):
            code = body["code"]
            try:
                code = int(code)
            except (TypeError, ValueError):
                pass
            api_cls = _CODE_CLASSES.get(code, ApiError) if isinstance(code, int) else ApiError
            if api_cls is ApiError and status == 403:
                api_cls = PermissionDeniedError
            return api_cls(code, str(body.get("msg", body.get("message", ""))), status, endpoint, body, headers, auth)
    text = body if isinstance(body, str) else repr(body)
    text = (text or "").strip().replace("\n", " ")[:200] or "no body"
    api_cls = NotFoundError if status == 404 else ApiError
    return api_cls(None, f"unexpected answer: {text}", status, endpoint, body, headers, auth)


def redirect_error(url: str) -> RedirectError | None:
    """The :class:`RedirectError` carried by a redirect URL, or None when it carries a code.

    >>> redirect_error("http://localhost/cb?error=access_denied&error_description=User%20denied&state=s1").state
    's1'
    """
    query = parse_qs(urlsplit(url).query)
    if "error" not in query:
        return None
    first = lambda k: query.get(k, [None])[0]  # noqa: E731
    return RedirectError(query["error"][0], first("error_description") or "", first("state"))
