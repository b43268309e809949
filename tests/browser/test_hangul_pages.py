"""The sandbox's login and consent pages draw Hangul with the web font the sandbox serves (Debian's chromium
here has no CJK system font: without the web font every Hangul glyph is a box). Screenshots go to
tests/browser/screenshots/ (gitignored)."""
from __future__ import annotations

from pathlib import Path

SHOTS = Path(__file__).parent / "screenshots"

FONT_STATE = """async () => {
  await document.fonts.ready;
  const loaded = [...document.fonts].filter(f => f.family.replace(/['"]/g, '') === 'NanumGothic'
                                           && f.status === 'loaded').length;
  // the nickname's width as drawn on the page equals its width in NanumGothic (boxes would differ)
  const b = document.querySelector('p b'); const style = getComputedStyle(b);
  const drawn = b.getBoundingClientRect().width;
  const c = document.createElement('canvas').getContext('2d'); c.font = `${style.fontWeight} ${style.fontSize} NanumGothic`;
  return {loaded, drawn, nanum: c.measureText(b.textContent).width};
}"""


def test_consent_page_draws_hangul_with_the_sandbox_web_font(page, fresh_tk):
    tk = fresh_tk
    fonts = []
    page.on("response", lambda r: fonts.append((r.url, r.status)) if "/sandbox/fonts/" in r.url else None)
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith(tk.sandbox.base_url)
               else route.abort())
    request = tk.oauth.authorize_url(["profile", "friends"], redirect_uri=tk.sandbox.base_url + "/sandbox/callback")
    page.goto(request.url)
    page.fill("input[name=email]", "seoyeon@sandbox.test")
    page.fill("input[name=password]", "sandbox")
    page.click("button[value=login]")
    page.wait_for_selector("form#consent")
    assert "서연" in page.inner_text("body")
    state = page.evaluate(FONT_STATE)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "consent_hangul.png"))
    assert state["loaded"] >= 1, state
    assert abs(state["drawn"] - state["nanum"]) < 0.5, state
    assert fonts and all(status in (200, 304) for _, status in fonts), fonts
    assert all(url.startswith(tk.sandbox.base_url + "/sandbox/fonts/NanumGothic") for url, _ in fonts)
