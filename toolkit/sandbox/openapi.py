"""The sandbox's OpenAPI 3.1 document: every spec endpoint it serves, written as a table (one entry per
endpoint), not introspected from the handlers. Served at ``GET /sandbox/openapi.json``.

Choices:

* **Hosts.** One server, the sandbox origin (``http://127.0.0.1:PORT``), and every path prefixed with its host's
  mount: ``/auth``, ``/api``, ``/local``, ``/navi``, ``/status``. Schemathesis and most generators handle one
  server with plain paths best (per-path ``servers`` are ignored by several tools). Each operation names its
  spec host and path in ``x-spec-host`` / ``x-spec-path``, and ``x-hosts`` (top level) lists the five base URLs.
* **Auth.** ``BearerToken`` (user access token), and three ``apiKey`` schemes on the ``Authorization`` header
  whose value is ``ServiceAK <key>``: ``RestApiKey``, ``AdminKey``, ``AnyAppKey`` (IP list: native, REST,
  JavaScript or admin key). 'Token or admin key' endpoints list both alternatives; in the admin-key mode the
  query/form fields ``target_id_type`` (fixed ``user_id``) and ``target_id`` (Long) are required — they are
  documented as optional parameters because OpenAPI cannot make a parameter conditional on the scheme.
* **Local ``{FORMAT}``.** One path per endpoint with a path parameter ``format`` (enum ``json``, ``xml``);
  200 answers ``application/json`` (schema) or ``text/xml`` (string).
* **Errors.** Reusable components ``ApiError`` (``{msg, code}``), ``OAuthError`` (``{error, error_description,
  error_code}``) and ``HtmlPage`` (the sandbox's error pages of the browser endpoints). Redirect errors are
  302 answers (``Location`` carries ``error``, ``error_description``, ``state``).
* Endpoints of the spec without a sandbox handler yet are listed in :data:`NOT_YET_DOCUMENTED`; a test makes
  the list shrink as areas land.
"""
from __future__ import annotations

import copy
from typing import Any

__all__ = ["build_document", "OPERATIONS", "NOT_YET_DOCUMENTED", "HOST_PREFIX", "REDIRECT_OPERATIONS"]

HOST_PREFIX = {h: f"/{h}" for h in ("auth", "api", "local", "navi", "status")}

# (method, host, spec path) of spec endpoints not documented yet because the sandbox has no handler yet.
NOT_YET_DOCUMENTED: set[tuple[str, str, str]] = set()

# ---------------------------------------------------------------------------------------------- schema helpers
S = {"type": "string"}
I = {"type": "integer"}
L = {"type": "integer", "format": "int64"}
N = {"type": "number"}
B = {"type": "boolean"}
DT = {"type": "string", "format": "date-time"}


def obj(props: dict, required: tuple | list = (), **extra) -> dict:
    out = {"type": "object", "properties": props}
    if required:
        out["required"] = list(required)
    out.update(extra)
    return out


def arr(items: dict, **extra) -> dict:
    return {"type": "array", "items": items, **extra}


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: dict) -> dict:
    return {"anyOf": [schema, {"type": "null"}]}


def enum(*values: str, **extra) -> dict:
    return {"type": "string", "enum": list(values), **extra}


def p(name: str, schema: dict, required: bool = False, where: str = "query", description: str = "", **extra) -> dict:
    out = {"name": name, "in": where, "required": required, "schema": schema, **extra}
    if description:
        out["description"] = description
    return out


ADMIN_PARAMS = [
    p("target_id_type", enum("user_id"), description="Admin-key mode only (required there): fixed user_id."),
    p("target_id", L, description="Admin-key mode only (required there): service user id."),
]

# Components -------------------------------------------------------------------------------------------------
SCHEMAS: dict[str, dict] = {
    "ApiError": obj({"msg": S, "code": {"type": "integer", "maximum": -1}}, ("msg", "code"),
                    description="Error shape 1: {msg, code} with a negative code."),
    "OAuthError": obj({"error": S, "error_description": S, "error_code": S}, ("error", "error_description"),
                      description="Error shape 2 of the authorization host."),
    "HtmlPage": {"type": "string", "description": "An HTML page (login, consent or error page)."},
    "TokenResponse": obj({"token_type": enum("bearer"), "access_token": S, "id_token": S, "expires_in": I,
                          "refresh_token": S, "refresh_token_expires_in": I, "scope": S},
                         ("token_type", "access_token", "expires_in")),
    "IdTokenPayload": obj({"iss": S, "aud": S, "sub": S, "iat": I, "exp": I, "auth_time": I, "nonce": S,
                           "nickname": S, "picture": S, "email": S}, ("iss", "aud", "sub", "iat", "exp", "auth_time")),
    "Discovery": obj({k: S for k in ("issuer", "authorization_endpoint", "token_endpoint", "userinfo_endpoint",
                                     "jwks_uri")}
                     | {k: arr(S) for k in ("token_endpoint_auth_methods_supported", "subject_types_supported",
                                            "id_token_signing_alg_values_supported", "response_types_supported",
                                            "response_modes_supported", "grant_types_supported",
                                            "code_challenge_methods_supported", "claims_supported")}
                     | {"request_uri_parameter_supported": B},
                     ("issuer", "authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri",
                      "token_endpoint_auth_methods_supported", "subject_types_supported",
                      "id_token_signing_alg_values_supported", "request_uri_parameter_supported",
                      "response_types_supported", "response_modes_supported", "grant_types_supported",
                      "code_challenge_methods_supported", "claims_supported")),
    "JWK": obj({"kid": S, "kty": enum("RSA"), "alg": enum("RS256"), "use": enum("sig"), "n": S, "e": S},
               ("kid", "kty", "alg", "use", "n", "e")),
    "OidcUserInfo": obj({"sub": S, "name": S, "nickname": S, "picture": S, "email": S, "email_verified": B,
                         "gender": enum("FEMALE", "MALE"), "birthdate": S, "phone_number": S,
                         "phone_number_verified": B}, ("sub",)),
    "Scope": obj({"id": S, "display_name": S, "type": S, "using": B, "agreed": B, "revocable": B},
                 ("id", "display_name", "type", "using", "agreed")),
    "ScopesResult": obj({"id": L, "scopes": arr(ref("Scope"))}, ("id", "scopes")),
    "ServiceTerms": obj({"tag": S, "required": B, "agreed": B, "revocable": B, "agreed_at": DT,
                         "agreed_by": enum("KAUTH", "KAPI")}, ("tag", "required", "agreed", "revocable")),
    "ShippingAddress": obj({"id": L, "name": S, "is_default": B, "updated_at": I, "type": enum("OLD", "NEW"),
                            "base_address": S, "detail_address": S, "receiver_name": S,
                            "receiver_phone_number1": S, "receiver_phone_number2": S, "zone_number": S,
                            "zip_code": S}, ("id", "is_default")),
    "UserId": obj({"id": L}, ("id",)),
    # social
    "StoryActor": obj({"display_name": S, "profile_thumbnail_url": S}),
    "Story": obj({"id": S, "url": S, "media_type": enum("PHOTO", "NOTE", "NOT_SUPPORTED"),
                  "media": arr(obj({k: S for k in ("original", "xlarge", "large", "medium", "small")})),
                  "created_at": DT, "comment_count": I, "like_count": I, "content": S,
                  "comments": arr(obj({"text": S, "writer": ref("StoryActor")}, ("text", "writer"))),
                  "likes": arr(obj({"emotion": enum("LIKE", "COOL", "HAPPY", "SAD", "CHEER_UP", "NOT_DEFINED"),
                                    "actor": ref("StoryActor")}, ("emotion", "actor"))),
                  "permission": enum("PUBLIC", "FRIEND", "ONLY_ME")},
                 ("id", "url", "created_at", "comment_count", "like_count")),
    "StoryId": obj({"id": S}, ("id",)),
    "TalkProfileInfo": obj({"user_id": L, "nickname": S, "profile_image_url": S, "thumbnail_image_url": S},
                           ("user_id",)),
    "Friend": obj({"id": L, "uuid": S, "profile_nickname": S, "profile_thumbnail_image": S, "favorite": B},
                  ("id", "uuid")),
    "FailureInfo": obj({"code": I, "msg": S, "receiver_uuids": arr(S)}, ("code", "msg", "receiver_uuids")),
    "FriendMessageResult": obj({"successful_receiver_uuids": arr(S), "failure_info": arr(ref("FailureInfo"))}),
    "MemoResult": obj({"result_code": I}, ("result_code",)),
    "ChannelRelation": obj({"channel_uuid": S, "channel_public_id": S, "relation": enum("ADDED", "BLOCKED", "NONE"),
                            "created_at": DT, "updated_at": DT}, ("channel_uuid", "channel_public_id", "relation")),
    "ChannelsResult": obj({"user_id": L, "channels": arr(ref("ChannelRelation"))}, ("user_id",)),
    # location
    "Address": obj({k: S for k in ("address_name", "region_1depth_name", "region_2depth_name",
                                   "region_3depth_name", "region_3depth_h_name", "h_code", "b_code",
                                   "main_address_no", "sub_address_no", "x", "y", "zip_code")}
                   | {"mountain_yn": enum("Y", "N")}),
    "RoadAddress": obj({k: S for k in ("address_name", "region_1depth_name", "region_2depth_name",
                                       "region_3depth_name", "road_name", "main_building_no", "sub_building_no",
                                       "building_name", "zone_no", "x", "y")}
                       | {"underground_yn": enum("Y", "N")}),
    "SearchMeta": obj({"total_count": I, "pageable_count": I, "is_end": B}, ("total_count", "pageable_count", "is_end")),
    "PlaceMeta": obj({"total_count": I, "pageable_count": I, "is_end": B,
                      "same_name": nullable(obj({"region": arr(S), "keyword": S, "selected_region": S}))},
                     ("total_count", "pageable_count", "is_end")),
    "CountMeta": obj({"total_count": I}, ("total_count",)),
    "Place": obj({k: S for k in ("id", "place_name", "category_name", "category_group_code", "category_group_name",
                                 "phone", "address_name", "road_address_name", "x", "y", "place_url", "distance")},
                 ("id", "place_name", "x", "y")),
    "Point": obj({"name": S, "x": N, "y": N}, ("x", "y")),
    "Bound": obj({"min_x": N, "min_y": N, "max_x": N, "max_y": N}, ("min_x", "min_y", "max_x", "max_y")),
    "Road": obj({"name": S, "distance": I, "duration": I, "traffic_speed": N, "traffic_state": I,
                 "vertexes": arr(N)}, ("name", "distance", "duration", "vertexes")),
    "Guide": obj({"name": S, "x": N, "y": N, "distance": I, "duration": I, "type": I, "guidance": S,
                  "road_index": I}, ("x", "y", "distance", "duration", "type", "guidance", "road_index")),
    "Section": obj({"distance": I, "duration": I, "bound": ref("Bound"), "roads": arr(ref("Road")),
                    "guides": arr(ref("Guide"))}, ("distance", "duration")),
    "Route": obj({"result_code": I, "result_msg": S,
                  "summary": obj({"origin": ref("Point"), "destination": ref("Point"), "waypoints": arr(ref("Point")),
                                  "priority": S, "bound": ref("Bound"),
                                  "fare": obj({"taxi": I, "toll": I}), "distance": I, "duration": I}),
                  "sections": arr(ref("Section"))}, ("result_code", "result_msg")),
    "Directions": obj({"trans_id": S, "routes": arr(ref("Route"))}, ("trans_id", "routes")),
    "ManyRoute": obj({"result_code": I, "result_msg": S, "key": S,
                      "summary": obj({"distance": I, "duration": I}, ("distance", "duration"))},
                     ("result_code", "result_msg", "key")),
    "ManyDirections": obj({"trans_id": S, "routes": arr(ref("ManyRoute"))}, ("trans_id", "routes")),
    "IpChange": obj({"ips": arr(S), "date": S}, ("ips", "date")),
    "IP": obj({"service": S, "ips": arr(S), "ports": arr(I), "addition": ref("IpChange"),
               "exclusion": ref("IpChange"), "updatedDate": S}, ("service", "ips", "ports", "updatedDate")),
    "Status": obj({"productId": S, "productName": S,
                   "status": enum("GREEN", "YELLOW", "RED", "MAINTENANCE", "UNKNOWN"),
                   "issues": arr(obj({"apiId": S, "apiName": S,
                                      "status": enum("GREEN", "YELLOW", "RED", "MAINTENANCE", "UNKNOWN")},
                                     ("apiId", "status")))}, ("productId", "productName", "status")),
}

COORDS = ("WGS84", "WCONGNAMUL", "CONGNAMUL", "WTM", "TM")
COORDS_ALL = COORDS + ("KTM", "UTM", "BESSEL", "WKTM", "WUTM")
CATEGORY_GROUPS = ("MT1", "CS2", "PS3", "SC4", "AC5", "PK6", "OL7", "SW8", "BK9", "CT1", "AG2", "PO3", "AT4",
                   "AD5", "FD6", "CE7", "HP8", "PM9")
AVOID = enum("roadevent", "ferries", "toll", "motorway", "schoolzone")
PRIORITY = enum("RECOMMEND", "TIME", "DISTANCE")
FUEL = enum("GASOLINE", "DIESEL", "LPG")
STORY_COMMON = {"permission": enum("F", "A", "M"), "enable_share": B,
                **{k: S for k in ("android_exec_param", "ios_exec_param", "android_market_param", "ios_market_param")}}
CONTENT = {"type": "string", "maxLength": 2048}
JSON_ARRAY_TEXT = {"type": "string", "description": "The text of a JSON array (String[] rule of the spec)."}
JSON_OBJECT_TEXT = {"type": "string", "description": "The text of a JSON object."}
NAMED_POINT = obj({"name": S, "x": {"type": "number", "minimum": -180, "maximum": 180},
                   "y": {"type": "number", "minimum": -90, "maximum": 90}}, ("x", "y"))
KEYED_POINT = obj({"key": {"type": "string", "minLength": 1}, "x": {"type": "number", "minimum": -180, "maximum": 180},
                   "y": {"type": "number", "minimum": -90, "maximum": 90}}, ("key", "x", "y"))
PLACE_PARAMS = [
    p("x", N, description="Centre longitude; with y and radius.", example=127.0276),
    p("y", N, description="Centre latitude.", example=37.4979),
    p("radius", {"type": "integer", "minimum": 0, "maximum": 20000}, example=2000),
    p("rect", S, description="left x,left y,right x,right y"),
    p("page", {"type": "integer", "minimum": 1, "maximum": 45, "default": 1}),
    p("size", {"type": "integer", "minimum": 1, "maximum": 15, "default": 15}),
    p("sort", enum("accuracy", "distance", default="accuracy")),
]
DIRECTIONS_QUERY = [
    p("origin", S, True, description="x,y or x,y,name=<name>", example="127.1086,37.4012,name=Pangyo"),
    p("destination", S, True, description="same formats as origin", example="127.0276,37.4979"),
    p("waypoints", S, description="up to 5 points separated by |"),
    p("priority", PRIORITY), p("avoid", S, description="roadevent|ferries|toll|motorway|schoolzone joined by |"),
    p("alternatives", B), p("road_details", B), p("car_type", {"type": "integer", "minimum": 1, "maximum": 7}),
    p("car_fuel", FUEL), p("car_hipass", B), p("summary", B),
]
STATUS_FILTERS = [p("product", S, description="comma-separated product ids"),
                  p("api", S, description="comma-separated API ids"), p("lang", enum("ko", "en", default="ko"))]

BEARER: list[dict[str, list[str]]] = [{"BearerToken": []}]
TOKEN_OR_ADMIN: list[dict[str, list[str]]] = [{"BearerToken": []}, {"AdminKey": []}]
REST: list[dict[str, list[str]]] = [{"RestApiKey": []}]
ADMIN: list[dict[str, list[str]]] = [{"AdminKey": []}]
REST_OR_ADMIN: list[dict[str, list[str]]] = [{"RestApiKey": []}, {"AdminKey": []}]
NONE: list = []


def form(props: dict, required=(), media: str = "application/x-www-form-urlencoded", example: dict | None = None) -> dict:
    out: dict[str, Any] = {"required": bool(required), "content": {media: {"schema": obj(props, required)}}}
    if example is not None:
        out["content"][media]["example"] = example
    return out


def json_body(schema: dict, example: dict | None = None) -> dict:
    out: dict[str, Any] = {"required": True, "content": {"application/json": {"schema": schema}}}
    if example is not None:
        out["content"]["application/json"]["example"] = example
    return out


# Examples: valid values against the seeded sandbox (demo user 4100000001, its channels and templates), used by
# generators for a first, valid call of each operation.
DEMO_USER = 4100000001
CENTRE = {"x": "127.0276", "y": "37.4979"}


# The table: one row per spec endpoint --------------------------------------------------------------------------
# keys: method, host, path (spec path; "{FORMAT}" becomes the path parameter "format"), source, security, params,
# body, ok (schema of the 200 JSON body; None: empty body; "redirect": browser endpoint), errors (status → shape),
# ok_xml (local endpoints: text/xml variant).
OPERATIONS: list[dict[str, Any]] = [
    # ------------------------------------------------------------------ identity
    dict(method="GET", host="auth", path="/oauth/authorize", source="identity §4.1", security=NONE, ok="redirect",
         params=[p("client_id", S, True), p("redirect_uri", S, True), p("response_type", enum("code"), True),
                 p("scope", S), p("prompt", S, description="comma-separated: login, none, create, select_account"),
                 p("login_hint", S), p("service_terms", S), p("state", S), p("nonce", S),
                 p("code_challenge", S), p("code_challenge_method", enum("S256"))]),
    dict(method="POST", host="auth", path="/oauth/token", source="identity §4.2", security=NONE,
         body=form({"grant_type": enum("authorization_code", "refresh_token"), "client_id": S, "redirect_uri": S,
                    "code": S, "client_secret": S, "refresh_token": S, "code_verifier": S},
                   ("grant_type", "client_id")),
         ok=ref("TokenResponse"), errors={400: "OAuthError", 401: "OAuthError"}),
    dict(method="POST", host="api", path="/v1/user/logout", source="identity §4.3", security=TOKEN_OR_ADMIN,
         params=ADMIN_PARAMS, ok=ref("UserId")),
    dict(method="GET", host="auth", path="/oauth/logout", source="identity §4.4", security=NONE, ok="redirect",
         params=[p("client_id", S, True), p("logout_redirect_uri", S, True), p("state", S)]),
    dict(method="GET", host="api", path="/v2/user/scopes", source="identity §4.5", security=TOKEN_OR_ADMIN,
         params=[p("scopes", S, description="JSON array text or comma-separated scope ids"), *ADMIN_PARAMS],
         ok=ref("ScopesResult")),
    dict(method="POST", host="api", path="/v2/user/revoke/scopes", source="identity §4.6", security=TOKEN_OR_ADMIN,
         params=ADMIN_PARAMS, body=form({"scopes": JSON_ARRAY_TEXT}, ("scopes",)), ok=ref("ScopesResult"),
         errors={400: "ApiError", 401: "ApiError", 403: "ApiError"}),
    dict(method="GET", host="api", path="/v2/user/service_terms", source="identity §4.7", security=TOKEN_OR_ADMIN,
         params=[p("result", enum("agreed_service_terms", "app_service_terms", default="agreed_service_terms")),
                 p("tags", S), *ADMIN_PARAMS],
         ok=obj({"id": L, "service_terms": arr(ref("ServiceTerms"))}, ("id",))),
    dict(method="POST", host="api", path="/v2/user/revoke/service_terms", source="identity §4.8",
         security=TOKEN_OR_ADMIN, params=ADMIN_PARAMS, body=form({"tags": S}, ("tags",)),
         ok=obj({"id": L, "revoked_service_terms": arr(obj({"tag": S, "agreed": B}, ("tag", "agreed")))}, ("id",))),
    dict(method="POST", host="api", path="/v2/user/upgrade/service_terms", source="identity §4.9",
         security=TOKEN_OR_ADMIN, params=ADMIN_PARAMS, body=form({"tags": S}, ("tags",)),
         ok=obj({"id": L, "agreed_service_terms": arr(obj({"tag": S, "agreed": B, "agreed_at": DT,
                                                           "agreed_by": enum("KAUTH", "KAPI")}, ("tag", "agreed")))},
                ("id",))),
    dict(method="GET", host="auth", path="/.well-known/openid-configuration", source="identity §4.10",
         security=NONE, ok=ref("Discovery"), errors={}),
    dict(method="GET", host="auth", path="/.well-known/jwks.json", source="identity §4.11", security=NONE,
         ok=obj({"keys": arr(ref("JWK"))}, ("keys",)), errors={}),
    dict(method="POST", host="auth", path="/oauth/tokeninfo", source="identity §4.12", security=NONE,
         body=form({"id_token": S}, ("id_token",)), ok=ref("IdTokenPayload"), errors={400: "OAuthError"}),
    dict(method="GET", host="api", path="/v1/oidc/userinfo", source="identity §4.13", security=BEARER,
         ok=ref("OidcUserInfo"), errors={401: "ApiError"}),
    dict(method="POST", host="api", path="/v1/user/signup", source="identity §4.14", security=TOKEN_OR_ADMIN,
         params=ADMIN_PARAMS, body={"required": False, "content": {"application/x-www-form-urlencoded": {
             "schema": obj({"properties": JSON_OBJECT_TEXT})}}}, ok=ref("UserId")),
    dict(method="POST", host="api", path="/v1/user/unlink", source="identity §4.14", security=TOKEN_OR_ADMIN,
         params=ADMIN_PARAMS, ok=ref("UserId")),
    dict(method="GET", host="api", path="/v2/user/me", source="identity §4.14", security=TOKEN_OR_ADMIN,
         params=ADMIN_PARAMS,
         ok=obj({"id": L, "connected_at": DT, "has_signed_up": B, "properties": {"type": "object"},
                 "kakao_account": {"type": "object"}}, ("id",))),
    dict(method="GET", host="api", path="/v1/user/access_token_info", source="identity §4.14", security=BEARER,
         ok=obj({"id": L, "expires_in": I, "app_id": I}, ("id", "expires_in", "app_id")), errors={401: "ApiError"}),
    dict(method="POST", host="api", path="/v1/user/update_profile", source="identity §4.14",
         security=TOKEN_OR_ADMIN, params=ADMIN_PARAMS,
         body=form({"properties": JSON_OBJECT_TEXT}, ("properties",), example={"properties": '{"grade": "gold"}'}),
         ok=ref("UserId")),
    dict(method="GET", host="api", path="/v1/user/ids", source="identity §4.14", security=ADMIN,
         params=[p("limit", {"type": "integer", "minimum": 1, "maximum": 100, "default": 100}),
                 p("order", enum("asc", "desc", default="asc")), p("from_id", L)],
         ok=obj({"elements": arr(L), "total_count": I, "before_url": nullable(S), "after_url": nullable(S)},
                ("elements", "total_count"))),
    dict(method="GET", host="api", path="/v1/user/shipping_address", source="identity §4.15",
         security=TOKEN_OR_ADMIN,
         params=[p("address_id", L), p("from_updated_at", {"type": "integer", "minimum": 0, "default": 0}),
                 p("page_size", {"type": "integer", "minimum": 2, "default": 10}), *ADMIN_PARAMS],
         ok=obj({"user_id": L, "shipping_addresses": arr(ref("ShippingAddress")),
                 "shipping_addresses_needs_agreement": B}, ("user_id",))),
    dict(method="GET", host="auth", path="/oauth/business/authorize", source="identity §4.16", security=NONE,
         ok="redirect",
         params=[p("client_id", S, True), p("response_type", enum("code"), True), p("redirect_uri", S, True),
                 p("scope", S, True, description="comma-separated business consent ids"), p("state", S),
                 p("resource_ids", arr(S), style="form", explode=True,
                   description="repeated ScopeGroup:ResourceId")]),
    dict(method="POST", host="auth", path="/oauth/business/token", source="identity §4.17", security=NONE,
         body=form({"grant_type": enum("authorization_code"), "client_id": S, "code": S, "redirect_uri": S,
                    "client_secret": S}, ("grant_type", "client_id", "code", "redirect_uri")),
         ok=obj({"token_type": enum("bearer"), "access_token": S, "scope": S}, ("token_type", "access_token", "scope")),
         errors={400: "OAuthError", 401: "OAuthError"}),
    dict(method="GET", host="api", path="/v1/business/tokeninfo", source="identity §4.18",
         security=[{"BusinessToken": []}],
         ok=obj({"id": S, "token_user_id": S, "status": S, "updated_at": DT, "biz_agreements": arr(obj(
             {"group": S, "scope": arr(S), "ad_account_ids": arr(S), "channel_public_ids": arr(S)},
             ("group", "scope")))}, ("id", "token_user_id", "biz_agreements", "status", "updated_at")),
         errors={401: "ApiError"}),
    dict(method="GET", host="api", path="/v1/business/userinfo", source="identity §4.19",
         security=[{"BusinessToken": []}], ok=obj({"token_user_id": S, "email": S, "email_verified": B},
                                                  ("token_user_id",)),
         errors={401: "ApiError", 404: "ApiError"}),
    dict(method="POST", host="api", path="/v1/business/revoke", source="identity §4.20",
         security=[{"BusinessToken": []}], ok=obj({"id": S, "token_user_id": S}, ("id", "token_user_id")),
         errors={401: "ApiError"}),
    dict(method="GET", host="auth", path="/.well-known/ssf-configuration", source="identity §4.21",
         security=NONE, ok=obj({"issuer": S, "jwks_uri": S, "delivery_methods_supported": S},
                               ("issuer", "jwks_uri", "delivery_methods_supported")), errors={}),
    # ------------------------------------------------------------------ social
    dict(method="GET", host="api", path="/v1/api/story/isstoryuser", source="social §4.1", security=BEARER,
         ok=obj({"isStoryUser": B}, ("isStoryUser",))),
    dict(method="GET", host="api", path="/v1/api/story/profile", source="social §4.1", security=BEARER,
         ok=obj({k: S for k in ("nickName", "profileImageURL", "thumbnailURL", "bgImageURL", "permalink",
                                "birthday")} | {"birthdayType": enum("SOLAR", "LUNAR")})),
    dict(method="POST", host="api", path="/v1/api/story/post/note", source="social §4.1", security=BEARER,
         body=form({"content": CONTENT, **STORY_COMMON}, ("content",)), ok=ref("StoryId")),
    dict(method="POST", host="api", path="/v1/api/story/post/photo", source="social §4.1", security=BEARER,
         body=form({"content": CONTENT, "image_url_list": JSON_ARRAY_TEXT, **STORY_COMMON}, ("image_url_list",)),
         ok=ref("StoryId")),
    dict(method="POST", host="api", path="/v1/api/story/post/link", source="social §4.1", security=BEARER,
         body=form({"content": CONTENT, "link_info": JSON_OBJECT_TEXT, **STORY_COMMON}, ("link_info",)),
         ok=ref("StoryId")),
    dict(method="GET", host="api", path="/v1/api/story/linkinfo", source="social §4.1 (scrape step)",
         security=BEARER, params=[p("url", S, True)],
         ok=obj({k: S for k in ("url", "requested_url", "host", "title", "description", "section", "type")}
                | {"image": arr(S)})),
    dict(method="GET", host="api", path="/v1/api/story/mystory", source="social §4.1", security=BEARER,
         params=[p("id", S, True)], ok=ref("Story")),
    dict(method="GET", host="api", path="/v1/api/story/mystories", source="social §4.1", security=BEARER,
         params=[p("last_id", S)], ok=arr(ref("Story"))),
    dict(method="DELETE", host="api", path="/v1/api/story/delete/mystory", source="social §4.1", security=BEARER,
         params=[p("id", S, True)], ok=None),
    dict(method="POST", host="api", path="/v1/api/story/upload/multi", source="social §4.1", security=BEARER,
         body={"required": True, "content": {"multipart/form-data": {"schema": obj(
             {"file": arr({"type": "string", "contentMediaType": "application/octet-stream"},
                          minItems=1, maxItems=10)}, ("file",))}}},
         ok=arr(S, description="paths with width and height, to pass unchanged as image_url_list")),
    dict(method="GET", host="api", path="/v1/api/talk/profile", source="social §4.2", security=BEARER,
         ok=obj({"id": L, "nickName": S, "profileImageURL": S, "thumbnailURL": S}, ("id",))),
    dict(method="GET", host="api", path="/v1/api/talk/friends", source="social §4.2", security=BEARER,
         params=[p("offset", {"type": "integer", "minimum": 0, "default": 0}),
                 p("limit", {"type": "integer", "minimum": 1, "maximum": 100, "default": 10}),
                 p("order", enum("asc", "desc", default="asc")),
                 p("friend_order", enum("nickname", "favorite", default="nickname"))],
         ok=obj({"elements": arr(ref("Friend")), "total_count": I, "before_url": nullable(S),
                 "after_url": nullable(S), "favorite_count": I}, ("total_count",))),
    dict(method="GET", host="api", path="/v2/api/talk/profiles", source="social §4.3", security=ADMIN,
         params=[p("target_ids", S, True, description="JSON array text or comma-separated user ids",
                   example=f"[{DEMO_USER}]"),
                 p("target_id_type", enum("user_id"), True, example="user_id"), p("viewer_id", L), p("viewer_id_type", enum("user_id"))],
         ok=obj({"viewer": ref("TalkProfileInfo"), "targets": arr(ref("TalkProfileInfo"))}, ("targets",))),
    dict(method="POST", host="api", path="/v2/api/talk/profiles", source="social §4.3", security=ADMIN,
         body=form({"target_ids": JSON_ARRAY_TEXT, "target_id_type": enum("user_id"), "viewer_id": L,
                    "viewer_id_type": enum("user_id")}, ("target_ids", "target_id_type"),
                   example={"target_ids": f"[{DEMO_USER}]", "target_id_type": "user_id"}),
         ok=obj({"viewer": ref("TalkProfileInfo"), "targets": arr(ref("TalkProfileInfo"))}, ("targets",))),
    dict(method="POST", host="api", path="/v2/api/talk/memo/default/send", source="social §4.4",
         security=BEARER, body=form({"template_object": JSON_OBJECT_TEXT}, ("template_object",), example={
             "template_object": '{"object_type": "text", "text": "hello", "link": {"web_url": "https://example.com"}}'}),
         ok=ref("MemoResult")),
    dict(method="POST", host="api", path="/v2/api/talk/memo/send", source="social §4.4", security=BEARER,
         body=form({"template_id": S, "template_args": JSON_OBJECT_TEXT}, ("template_id",),
                   example={"template_id": "10001", "template_args": '{"name": "Ann", "coupon": "A1"}'}),
         ok=ref("MemoResult")),
    dict(method="POST", host="api", path="/v2/api/talk/memo/scrap/send", source="social §4.4", security=BEARER,
         body=form({"request_url": S, "template_id": S, "template_args": JSON_OBJECT_TEXT}, ("request_url",)),
         ok=ref("MemoResult")),
    dict(method="POST", host="api", path="/v1/api/talk/friends/message/default/send", source="social §4.5",
         security=BEARER, body=form({"receiver_uuids": JSON_ARRAY_TEXT, "template_object": JSON_OBJECT_TEXT},
                                    ("receiver_uuids", "template_object")), ok=ref("FriendMessageResult")),
    dict(method="POST", host="api", path="/v1/api/talk/friends/message/send", source="social §4.5",
         security=BEARER, body=form({"receiver_uuids": JSON_ARRAY_TEXT, "template_id": S,
                                     "template_args": JSON_OBJECT_TEXT}, ("receiver_uuids", "template_id")),
         ok=ref("FriendMessageResult")),
    dict(method="POST", host="api", path="/v1/api/talk/friends/message/scrap/send", source="social §4.5",
         security=BEARER, body=form({"receiver_uuids": JSON_ARRAY_TEXT, "request_url": S, "template_id": S,
                                     "template_args": JSON_OBJECT_TEXT}, ("receiver_uuids", "request_url")),
         ok=ref("FriendMessageResult")),
    dict(method="GET", host="api", path="/v2/api/talk/channels", source="social §4.6", security=TOKEN_OR_ADMIN,
         params=[p("channel_ids", S, description="comma-separated channel profile ids"),
                 p("channel_id_type", enum("channel_public_id")), *ADMIN_PARAMS], ok=ref("ChannelsResult")),
    dict(method="GET", host="api", path="/v2/api/talk/channels/multi", source="social §4.6", security=ADMIN,
         params=[p("target_id_type", enum("user_id"), True, example="user_id"),
                 p("target_ids", S, True, description="comma-separated user ids, at most 200", example=str(DEMO_USER)),
                 p("channel_id_type", enum("channel_public_id")), p("channel_ids", S)],
         ok=arr(ref("ChannelsResult"))),
    dict(method="POST", host="api", path="/v1/talkchannel/create/target_user_file", source="social §4.7",
         security=REST_OR_ADMIN,
         body=json_body(obj({"channel_public_id": S, "file_name": S,
                             "schema": {"type": "object", "maxProperties": 30,
                                        "additionalProperties": enum("string", "number")}},
                            ("channel_public_id", "schema", "file_name")),
                        {"channel_public_id": "_xcLqmC", "file_name": "vip", "schema": {"구매금액": "number"}}),
         ok=obj({"file_id": I}, ("file_id",))),
    dict(method="GET", host="api", path="/v1/talkchannel/target_user_file", source="social §4.7",
         security=REST_OR_ADMIN, params=[p("channel_public_id", S, True, example="_xcLqmC")],
         ok=obj({"empty_slot": I, "using_slot": I, "results": arr(obj({"file_id": I, "file_name": S, "status": S,
                                                                     "update_at": S}))},
                ("empty_slot", "using_slot", "results"))),
    dict(method="POST", host="api", path="/v1/talkchannel/update/target_users", source="social §4.7",
         security=REST_OR_ADMIN,
         body=json_body(obj({"file_id": I, "channel_public_id": S, "user_type": enum("app", "phone"),
                             "users": arr(obj({"id": S, "field": {"type": "object"}}, ("id", "field")),
                                          minItems=1, maxItems=2000)},
                            ("file_id", "channel_public_id", "user_type", "users"))),
         ok=obj({"file_id": I, "request_count": I, "success_count": I}, ("file_id", "request_count", "success_count"))),
    dict(method="POST", host="api", path="/v1/talkchannel/delete/target_users", source="social §4.7",
         security=REST_OR_ADMIN,
         body=json_body(obj({"file_id": I, "channel_public_id": S, "user_type": enum("app", "phone"),
                             "user_ids": arr(S, minItems=1)}, ("file_id", "channel_public_id", "user_type", "user_ids"))),
         ok=None),
    # ------------------------------------------------------------------ location
    dict(method="GET", host="local", path="/v2/local/search/address.{FORMAT}", source="location §4.1",
         security=REST, params=[p("query", S, True, example="판교역로 166"), p("analyze_type", enum("similar", "exact", default="similar")),
                                p("page", {"type": "integer", "minimum": 1, "maximum": 45, "default": 1}),
                                p("size", {"type": "integer", "minimum": 1, "maximum": 30, "default": 10})],
         ok=obj({"meta": ref("SearchMeta"), "documents": arr(obj({
             "address_name": S, "address_type": enum("REGION", "ROAD", "REGION_ADDR", "ROAD_ADDR"), "x": S, "y": S,
             "address": nullable(ref("Address")), "road_address": nullable(ref("RoadAddress"))}))},
             ("meta", "documents")), errors={400: "ApiError", 401: "ApiError", 404: "ApiError"}),
    dict(method="GET", host="local", path="/v2/local/geo/coord2regioncode.{FORMAT}", source="location §4.2",
         security=REST, params=[p("x", N, True), p("y", N, True), p("input_coord", enum(*COORDS, default="WGS84")),
                                p("output_coord", enum(*COORDS, default="WGS84"))],
         ok=obj({"meta": ref("CountMeta"), "documents": arr(obj({
             "region_type": enum("H", "B"), "address_name": S, "region_1depth_name": S, "region_2depth_name": S,
             "region_3depth_name": S, "region_4depth_name": S, "code": S, "x": N, "y": N},
             ("region_type", "address_name", "code", "x", "y")))}, ("meta", "documents")),
         errors={400: "ApiError", 401: "ApiError", 404: "ApiError"}),
    dict(method="GET", host="local", path="/v2/local/geo/coord2address.{FORMAT}", source="location §4.3",
         security=REST, params=[p("x", N, True), p("y", N, True), p("input_coord", enum(*COORDS, default="WGS84"))],
         ok=obj({"meta": obj({"total_count": {"type": "integer", "minimum": 0, "maximum": 1}}, ("total_count",)),
                 "documents": arr(obj({"address": nullable(ref("Address")),
                                       "road_address": nullable(ref("RoadAddress"))}))}, ("meta", "documents")),
         errors={400: "ApiError", 401: "ApiError", 404: "ApiError"}),
    dict(method="GET", host="local", path="/v2/local/geo/transcoord.{FORMAT}", source="location §4.4",
         security=REST, params=[p("x", N, True), p("y", N, True),
                                p("input_coord", enum(*COORDS_ALL, default="WGS84")),
                                p("output_coord", enum(*COORDS_ALL, default="WGS84"))],
         ok=obj({"meta": ref("CountMeta"), "documents": arr(obj({"x": N, "y": N}, ("x", "y")))},
                ("meta", "documents")), errors={400: "ApiError", 401: "ApiError", 404: "ApiError"}),
    dict(method="GET", host="local", path="/v2/local/search/keyword.{FORMAT}", source="location §4.5",
         security=REST, params=[p("query", S, True, example="카페"), p("category_group_code", enum(*CATEGORY_GROUPS)),
                                *PLACE_PARAMS],
         ok=obj({"meta": ref("PlaceMeta"), "documents": arr(ref("Place"))}, ("meta", "documents")),
         errors={400: "ApiError", 401: "ApiError", 404: "ApiError"}),
    dict(method="GET", host="local", path="/v2/local/search/category.{FORMAT}", source="location §4.6",
         security=REST, params=[p("category_group_code", enum(*CATEGORY_GROUPS), True, example="CE7"), *PLACE_PARAMS],
         ok=obj({"meta": ref("PlaceMeta"), "documents": arr(ref("Place"))}, ("meta", "documents")),
         errors={400: "ApiError", 401: "ApiError", 404: "ApiError"}),
    dict(method="GET", host="local", path="/v2/routing/publictraffic", source="location §4.7 (sandbox design)",
         security=REST,
         params=[p("origin", S, True, example="129.034619,35.097884"),
                 p("destination", S, True, example="129.058468,35.157675"),
                 p("departure_time", {"type": "string", "pattern": "^[0-9]{12}$"}, description="yyyyMMddHHmm, KST"),
                 p("max_walk", {"type": "integer", "minimum": 100, "maximum": 5000, "default": 1000})],
         ok=obj({"trans_id": S, "routes": arr(obj({
             "result_code": I, "result_msg": S,
             "summary": obj({"origin": NAMED_POINT, "destination": NAMED_POINT, "departure_time": S,
                             "arrival_time": S, "distance": I, "duration": I, "transfers": I,
                             "fare": obj({"transit": I}, ("transit",))}),
             "legs": arr(obj({"mode": enum("WALK", "SUBWAY"), "line": nullable(S), "from": NAMED_POINT,
                              "to": NAMED_POINT, "distance": I, "duration": I, "wait": I, "stops": I}))},
             ("result_code", "result_msg")))}, ("trans_id", "routes")),
         errors={400: "ApiError", 401: "ApiError"}),
    dict(method="GET", host="navi", path="/v1/directions", source="location §4.8", security=REST,
         params=DIRECTIONS_QUERY, ok=ref("Directions")),
    dict(method="POST", host="navi", path="/v1/waypoints/directions", source="location §4.9", security=REST,
         body=json_body(obj({"origin": NAMED_POINT, "destination": NAMED_POINT,
                             "waypoints": arr(NAMED_POINT, maxItems=30), "priority": PRIORITY, "avoid": arr(AVOID),
                             "alternatives": B, "road_details": B, "summary": B, "car_hipass": B,
                             "car_type": {"type": "integer", "minimum": 1, "maximum": 7}, "car_fuel": FUEL},
                            ("origin", "destination"))), ok=ref("Directions")),
    dict(method="POST", host="navi", path="/v1/origins/directions", source="location §4.10", security=REST,
         body=json_body(obj({"origins": arr(KEYED_POINT, minItems=1, maxItems=30), "destination": NAMED_POINT,
                             "radius": {"type": "integer", "minimum": 1, "maximum": 10000},
                             "priority": enum("TIME", "DISTANCE"), "avoid": arr(AVOID)},
                            ("origins", "destination", "radius"))), ok=ref("ManyDirections")),
    dict(method="POST", host="navi", path="/v1/destinations/directions", source="location §4.11 (sandbox design)",
         security=REST,
         body=json_body(obj({"origin": NAMED_POINT, "destinations": arr(KEYED_POINT, minItems=1, maxItems=30),
                             "radius": {"type": "integer", "minimum": 1, "maximum": 10000},
                             "priority": enum("TIME", "DISTANCE"), "avoid": arr(AVOID)},
                            ("origin", "destinations", "radius"))), ok=ref("ManyDirections")),
    dict(method="GET", host="navi", path="/v1/future/directions", source="location §4.11 (sandbox design)",
         security=REST, params=[*DIRECTIONS_QUERY, p("departure_time", {"type": "string", "pattern": "^[0-9]{12}$"},
                                                     True, description="yyyyMMddHHmm, Korea time, not in the past",
                                                     example="203001010900")],
         ok=ref("Directions")),
    dict(method="GET", host="api", path="/v1/system/ips", source="location §4.12", security=[{"AnyAppKey": []}],
         params=[p("rule_type", enum("inbound", "outbound"))],
         ok=obj({"inbound": arr(ref("IP")), "outbound": arr(ref("IP")), "updatedDate": S}, ("updatedDate",))),
    dict(method="GET", host="status", path="/api/health/current", source="location §4.13", security=NONE,
         params=STATUS_FILTERS,
         ok=obj({"updatedAt": S, "statuses": arr(ref("Status")),
                 "warning": obj({"invalidProduct": arr(S), "invalidUri": arr(S)})}, ("updatedAt", "statuses")),
         errors={400: "ApiError"}),
    dict(method="GET", host="status", path="/api/health/history", source="location §4.14", security=NONE,
         params=[p("start", S, description="yyyy-MM-dd, at most 30 days back"), p("end", S, description="yyyy-MM-dd"),
                 *STATUS_FILTERS],
         ok=arr(obj({"date": S, "statuses": arr(ref("Status"))}, ("date", "statuses"))), errors={400: "ApiError"}),
]

DEFAULT_ERRORS = {400: "ApiError", 401: "ApiError", 403: "ApiError"}
ERROR_TEXT = {400: "Bad request", 401: "Missing or invalid credential", 403: "Not allowed (consent, revocable)",
              404: "Unknown path variant"}
# Browser endpoints answering redirects and HTML pages (excluded from response-schema checks when fuzzing).
REDIRECT_OPERATIONS = {(o["method"], o["host"], o["path"]) for o in OPERATIONS if o["ok"] == "redirect"}


def doc_path(host: str, spec_path: str) -> str:
    return HOST_PREFIX[host] + spec_path.replace("{FORMAT}", "{format}")


def _operation(row: dict) -> dict:
    op: dict[str, Any] = {
        "operationId": f"{row['method'].lower()}_{row['host']}{row['path']}".replace("/", "_").replace(".", "_")
        .replace("{FORMAT}", "format").replace("-", "_"),
        "summary": f"{row['method']} {{{row['host']}_url}}{row['path']}",
        "description": f"Spec: {row['source']}.",
        "tags": [row["source"].split()[0].removesuffix(".md")],
        "x-spec-host": row["host"], "x-spec-path": row["path"],
        "security": copy.deepcopy(row["security"]),
    }
    params = [copy.deepcopy(x) for x in row.get("params", [])]
    if "{FORMAT}" in row["path"]:
        params.insert(0, p("format", enum("json", "xml"), True, where="path"))
    if params:
        op["parameters"] = params
    if row.get("body"):
        op["requestBody"] = copy.deepcopy(row["body"])
    responses: dict[str, Any] = {}
    ok = row["ok"]
    if ok == "redirect":
        responses["200"] = {"description": "Login, consent or account-choice page",
                            "content": {"text/html": {"schema": ref("HtmlPage")}}}
        responses["302"] = {"description": "Redirect to redirect_uri with code or error, error_description, state",
                            "headers": {"Location": {"schema": S, "required": True}}}
        responses["400"] = {"description": "Error page (KOE006, KOE101)",
                            "content": {"text/html": {"schema": ref("HtmlPage")}}}
    elif ok is None:
        responses["200"] = {"description": "Success, empty body"}
    else:
        content = {"application/json": {"schema": copy.deepcopy(ok)}}
        if "{FORMAT}" in row["path"]:
            content["text/xml"] = {"schema": {"type": "string", "description": "XML form (format=xml)"}}
        responses["200"] = {"description": "Success", "content": content}
    errors = row.get("errors", DEFAULT_ERRORS)
    for status, shape in errors.items():
        responses[str(status)] = {"description": ERROR_TEXT.get(status, "Error"),
                                  "content": {"application/json": {"schema": ref(shape)}}}
    if ok != "redirect" and row["security"] and "401" in responses:
        responses["401"]["headers"] = {"WWW-Authenticate": {"schema": S}}
    op["responses"] = responses
    return op


def build_document(base_url: str | None = None) -> dict:
    """The OpenAPI 3.1 document; ``base_url`` is the sandbox origin (``http://127.0.0.1:PORT``)."""
    origin = (base_url or "http://127.0.0.1:8000").rstrip("/")
    paths: dict[str, dict] = {}
    for row in OPERATIONS:
        paths.setdefault(doc_path(row["host"], row["path"]), {})[row["method"].lower()] = _operation(row)
    return {
        "openapi": "3.1.0",
        "info": {"title": "toolkit sandbox: the social platform's HTTP API", "version": "1.0.0",
                 "description": "Every spec endpoint the sandbox serves (identity, social, location). "
                                "One server (the sandbox origin); paths carry the host mount as a prefix."},
        "servers": [{"url": origin, "description": "The sandbox origin; hosts are the path prefixes /auth, /api, "
                                                    "/local, /navi, /status"}],
        "x-hosts": {h: origin + prefix for h, prefix in HOST_PREFIX.items()},
        "x-not-yet-documented": sorted(" ".join(k) for k in NOT_YET_DOCUMENTED),
        "paths": paths,
        "components": {
            "schemas": copy.deepcopy(SCHEMAS),
            "securitySchemes": {
                "BearerToken": {"type": "http", "scheme": "bearer",
                                "description": "User access token (Authorization: Bearer <ACCESS_TOKEN>)."},
                "RestApiKey": {"type": "apiKey", "in": "header", "name": "Authorization",
                               "description": "Authorization: ServiceAK <REST_API_KEY>."},
                "AdminKey": {"type": "apiKey", "in": "header", "name": "Authorization",
                             "description": "Authorization: ServiceAK <SERVICE_APP_ADMIN_KEY>. On 'token or admin "
                                            "key' endpoints also target_id_type=user_id and target_id=<Long>."},
                "BusinessToken": {"type": "http", "scheme": "bearer",
                                  "description": "Business access token (Authorization: Bearer <BUSINESS_TOKEN>)."},
                "AnyAppKey": {"type": "apiKey", "in": "header", "name": "Authorization",
                              "description": "Authorization: ServiceAK <key>: native app, REST API, JavaScript "
                                             "or admin key."},
            },
        },
    }
