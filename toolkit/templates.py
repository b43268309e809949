"""Message template builders (social §2 'Message template object'): feed, list, location, commerce, text and
calendar. Each builder returns a plain ``dict`` ready for ``template_object`` and validates its shape first;
:func:`validate` checks any dict (the send methods call it before a request leaves).

>>> from toolkit import templates as T
>>> msg = T.feed(T.content("Winter sale", "Up to 40% off", image_url="https://shop.example/sale.png",
...                        link=T.link(web_url="https://shop.example")),
...              buttons=[T.button("Open", T.link(web_url="https://shop.example"))])
>>> msg["object_type"], msg["content"]["title"]
('feed', 'Winter sale')
>>> T.text("", link=T.link(web_url="https://x.example"))
Traceback (most recent call last):
...
toolkit.templates.TemplateError: template.text='': required, 1 to 200 characters

Requiredness follows the real platform's default templates (the spec shows only the feed members):
feed needs ``content`` (with ``link``); text needs ``text`` (≤ 200 characters) and ``link``; list needs
``header_title`` and 2–3 ``contents``; location needs ``content`` and ``address``; commerce needs ``content``
and ``commerce.regular_price``; calendar needs ``id_type`` (``event``/``calendar``), ``id`` and ``content``.
At most 2 buttons.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from .errors import ParameterError

__all__ = ["TemplateError", "link", "content", "button", "item_content", "social", "feed", "text", "list_", "location",
           "commerce", "calendar", "validate", "OBJECT_TYPES"]

OBJECT_TYPES = ("feed", "list", "location", "commerce", "text", "calendar")
LINK_KEYS = ("web_url", "mobile_web_url", "android_execution_params", "ios_execution_params")
CONTENT_STR = ("title", "description", "image_url")
CONTENT_INT = ("image_width", "image_height")
ITEM_STR = ("profile_text", "profile_image_url", "title_image_url", "title_image_text", "title_image_category",
            "sum", "sum_op")
SOCIAL_KEYS = ("like_count", "comment_count", "shared_count", "view_count", "subscriber_count")
MAX_BUTTONS = 2
MAX_TEXT = 200


class TemplateError(ParameterError):
    """A template object does not have the shape the service accepts."""


def _clean(d: Mapping[str, Any]) -> dict:
    return {k: v for k, v in d.items() if v is not None}


def _check_link(value, where: str) -> None:
    if not isinstance(value, Mapping):
        raise TemplateError(where, "required: a link object (web_url, mobile_web_url, ..._execution_params)")
    unknown = set(value) - set(LINK_KEYS)
    if unknown:
        raise TemplateError(where, f"unknown link members {sorted(unknown)}; allowed: {', '.join(LINK_KEYS)}")
    for k, v in value.items():
        if not isinstance(v, str):
            raise TemplateError(f"{where}.{k}", "must be a string", v)
    if not value:
        raise TemplateError(where, "give at least one of " + ", ".join(LINK_KEYS))


def _check_content(value, where: str, need_title: bool = False) -> None:
    if not isinstance(value, Mapping):
        raise TemplateError(where, "required: a content object (title, description, image_url, link)")
    for k in CONTENT_STR:
        if k in value and not isinstance(value[k], str):
            raise TemplateError(f"{where}.{k}", "must be a string", value[k])
    for k in CONTENT_INT:
        if k in value and (not isinstance(value[k], int) or isinstance(value[k], bool) or value[k] <= 0):
            raise TemplateError(f"{where}.{k}", "must be a positive integer", value[k])
    if need_title and not value.get("title"):
        raise TemplateError(f"{where}.title", "required")
    _check_link(value.get("link"), f"{where}.link")


def _check_buttons(value, where: str = "template.buttons") -> None:
    if value is None:
        return
    if not isinstance(value, list) or len(value) > MAX_BUTTONS:
        raise TemplateError(where, f"must be a list of at most {MAX_BUTTONS} buttons", value)
    for i, b in enumerate(value):
        if not isinstance(b, Mapping) or not isinstance(b.get("title"), str) or not b.get("title"):
            raise TemplateError(f"{where}[{i}].title", "required string")
        _check_link(b.get("link"), f"{where}[{i}].link")


def validate(obj: Mapping[str, Any]) -> dict:
    """Check a template object's shape; return it as a dict. Raises :class:`TemplateError` naming the member."""
    if not isinstance(obj, Mapping):
        raise TemplateError("template", "must be a dict (a template object)", type(obj).__name__)
    kind = obj.get("object_type")
    if kind not in OBJECT_TYPES:
        raise TemplateError("template.object_type", f"must be one of {', '.join(OBJECT_TYPES)}", kind)
    if kind in ("feed", "location", "commerce", "calendar"):
        _check_content(obj.get("content"), "template.content")
    if kind == "feed":
        ic = obj.get("item_content")
        if ic is not None:
            if not isinstance(ic, Mapping):
                raise TemplateError("template.item_content", "must be an object")
            for k in ITEM_STR:
                if k in ic and not isinstance(ic[k], str):
                    raise TemplateError(f"template.item_content.{k}", "must be a string", ic[k])
            items = ic.get("items", [])
            if not isinstance(items, list) or len(items) > 5 or not all(
                    isinstance(x, Mapping) and isinstance(x.get("item"), str) and isinstance(x.get("item_op"), str)
                    for x in items):
                raise TemplateError("template.item_content.items", "at most 5 objects with item and item_op strings")
        sc = obj.get("social")
        if sc is not None:
            if not isinstance(sc, Mapping) or any(k not in SOCIAL_KEYS for k in sc):
                raise TemplateError("template.social", f"an object with {', '.join(SOCIAL_KEYS)}")
            for k, v in sc.items():
                if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                    raise TemplateError(f"template.social.{k}", "must be a non-negative integer", v)
    if kind == "text":
        t = obj.get("text")
        if not isinstance(t, str) or not 1 <= len(t) <= MAX_TEXT:
            raise TemplateError("template.text", f"required, 1 to {MAX_TEXT} characters", t)
        _check_link(obj.get("link"), "template.link")
    if kind == "list":
        if not isinstance(obj.get("header_title"), str) or not obj.get("header_title"):
            raise TemplateError("template.header_title", "required string")
        contents = obj.get("contents")
        if not isinstance(contents, list) or not 2 <= len(contents) <= 3:
            raise TemplateError("template.contents", "required: 2 or 3 content objects")
        for i, c in enumerate(contents):
            _check_content(c, f"template.contents[{i}]", need_title=True)
    if kind == "location":
        if not isinstance(obj.get("address"), str) or not obj.get("address"):
            raise TemplateError("template.address", "required string")
    if kind == "commerce":
        cm = obj.get("commerce")
        if not isinstance(cm, Mapping) or not isinstance(cm.get("regular_price"), int) or cm["regular_price"] < 0:
            raise TemplateError("template.commerce.regular_price", "required non-negative integer")
        for k in ("discount_price", "discount_rate", "fixed_discount_price"):
            if k in cm and (not isinstance(cm[k], int) or cm[k] < 0):
                raise TemplateError(f"template.commerce.{k}", "must be a non-negative integer", cm[k])
        if "discount_rate" in cm and cm["discount_rate"] > 100:
            raise TemplateError("template.commerce.discount_rate", "must be 0 to 100", cm["discount_rate"])
    if kind == "calendar":
        if obj.get("id_type") not in ("event", "calendar"):
            raise TemplateError("template.id_type", "must be 'event' (public event id) or 'calendar' "
                                "(subscribed calendar id)", obj.get("id_type"))
        if not isinstance(obj.get("id"), str) or not obj.get("id"):
            raise TemplateError("template.id", "required string (event or calendar id)")
    _check_buttons(obj.get("buttons"))
    return dict(obj)


# ---------------------------------------------------------------------- builders of members
def link(web_url: str | None = None, mobile_web_url: str | None = None, *, android_execution_params: str | None = None,
         ios_execution_params: str | None = None) -> dict:
    """A link object; ``mobile_web_url`` defaults to ``web_url``."""
    out = _clean({"web_url": web_url, "mobile_web_url": mobile_web_url or web_url,
                  "android_execution_params": android_execution_params, "ios_execution_params": ios_execution_params})
    _check_link(out, "link")
    return out


def content(title: str | None = None, description: str | None = None, *, image_url: str | None = None,
            image_width: int | None = None, image_height: int | None = None, link: Mapping | None = None) -> dict:
    out = _clean({"title": title, "description": description, "image_url": image_url, "image_width": image_width,
                  "image_height": image_height, "link": dict(link) if link else None})
    _check_content(out, "content")
    return out


def button(title: str, link: Mapping) -> dict:
    out = {"title": title, "link": dict(link)}
    _check_buttons([out], "button")
    return [out][0]


def item_content(*, profile_text=None, profile_image_url=None, title_image_url=None, title_image_text=None,
                 title_image_category=None, items: Iterable[tuple[str, str]] | None = None, sum=None,
                 sum_op=None) -> dict:
    return _clean({"profile_text": profile_text, "profile_image_url": profile_image_url,
                   "title_image_url": title_image_url, "title_image_text": title_image_text,
                   "title_image_category": title_image_category,
                   "items": [{"item": a, "item_op": b} for a, b in items] if items else None,
                   "sum": sum, "sum_op": sum_op})


def social(**counts: int) -> dict:
    return dict(counts)


# ---------------------------------------------------------------------- templates
def _buttons(buttons):
    return [dict(b) for b in buttons] if buttons else None


def feed(content: Mapping, *, item_content: Mapping | None = None, social: Mapping | None = None,
         buttons: list | None = None, button_title: str | None = None) -> dict:
    return validate(_clean({"object_type": "feed", "content": dict(content), "item_content": item_content,
                            "social": social, "buttons": _buttons(buttons), "button_title": button_title}))


def text(text: str, link: Mapping, *, buttons: list | None = None, button_title: str | None = None) -> dict:
    return validate(_clean({"object_type": "text", "text": text, "link": dict(link) if link else None,
                            "buttons": _buttons(buttons), "button_title": button_title}))


def list_(header_title: str, contents: list, *, header_link: Mapping | None = None, buttons: list | None = None,
          button_title: str | None = None) -> dict:
    return validate(_clean({"object_type": "list", "header_title": header_title, "header_link": header_link,
                            "contents": [dict(c) for c in contents], "buttons": _buttons(buttons),
                            "button_title": button_title}))


def location(address: str, content: Mapping, *, address_title: str | None = None, social: Mapping | None = None,
             buttons: list | None = None, button_title: str | None = None) -> dict:
    return validate(_clean({"object_type": "location", "address": address, "address_title": address_title,
                            "content": dict(content), "social": social, "buttons": _buttons(buttons),
                            "button_title": button_title}))


def commerce(content: Mapping, regular_price: int, *, discount_price: int | None = None,
             discount_rate: int | None = None, fixed_discount_price: int | None = None,
             product_name: str | None = None, currency_unit: str | None = None,
             currency_unit_position: int | None = None, buttons: list | None = None,
             button_title: str | None = None) -> dict:
    cm = _clean({"regular_price": regular_price, "discount_price": discount_price, "discount_rate": discount_rate,
                 "fixed_discount_price": fixed_discount_price, "product_name": product_name,
                 "currency_unit": currency_unit, "currency_unit_position": currency_unit_position})
    return validate(_clean({"object_type": "commerce", "content": dict(content), "commerce": cm,
                            "buttons": _buttons(buttons), "button_title": button_title}))


def calendar(id: str, content: Mapping, *, id_type: str = "event", buttons: list | None = None) -> dict:
    return validate(_clean({"object_type": "calendar", "id_type": id_type, "id": id, "content": dict(content),
                            "buttons": _buttons(buttons)}))
