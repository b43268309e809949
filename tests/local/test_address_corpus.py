"""Addresses as people write them (issue 41, points 1-3): the corpus of ``data/address_corpus.csv`` lands on its
places and every reason is true of the data; one address in every form gets one answer; a similar answer is not
a match, against the sandbox and against the real service's documented answer; a non-text column is refused."""
from __future__ import annotations

import doctest
import json

import httpx
import pandas as pd
import pytest

import toolkit
from tests.local import address_corpus_check as check
from tests.local import make_address_corpus as corpus
from toolkit.addresstext import read
from toolkit.errors import ParameterError


def test_the_corpus_file_is_what_its_script_makes():
    rows = corpus.read()
    assert rows == [{k: str(v) for k, v in r.items()} for r in corpus.make()]
    assert len(rows) >= 300 and sum(1 for r in rows if not r["place"]) >= 90
    forms = " ".join(r["form"] for r in rows)
    for form in ("번지", "N번지 M호", "unit", "no space", "postcode", "parentheses", "administrative dong",
                 "romanised", "misspelt dong", "dong of another district", "outside the city"):
        assert form in forms, form


def test_the_corpus_lands_on_its_places_and_every_reason_is_true(tk, capsys):
    figures, _ = check.evaluate(tk)
    with capsys.disabled():
        print("\naddress corpus:", figures)
    assert figures.matched_wrong == 0 and figures.wrong_matched == 0, figures.problems
    assert figures.matched_right / figures.known >= 0.98, figures.problems
    assert figures.reasons_true == figures.reasons, figures.problems


FORMS = ["부산광역시 부산진구 전포동 341-17", "부산 부산진구 전포동 341-17", "부산시 부산진구 전포동 341번지 17호",
         "부산진구 전포동 341-17번지", "전포동 341-17, 2층", "부산진구전포동341-17", "부산진구 전포동 ３４１－１７",
         "(47300) 부산진구 전포동 341-17 101호", "부산진구 전포1동 341-17", "전포동 341-17 (OO빌라)",
         "341-17, Jeonpo-dong, Busanjin-gu, Busan", "Jeonpo-dong 341-17, Busanjin-gu, Busan 47300"]


def test_one_address_in_every_form_gets_one_answer(fresh_tk):
    fresh_tk.sandbox.control("POST", "/sandbox/local/requests")
    out = fresh_tk.local.geocode(FORMS, progress=False)
    assert (out["geocode_status"] == "matched").all(), out[["address", "geocode_status", "geocode_reason"]]
    assert set(out["geocode_address"]) == {"부산광역시 부산진구 전포동 341-17"}
    sent = fresh_tk.sandbox.control("GET", "/sandbox/local/requests", params={"api": "local_search_address"})
    # one request per address as it is sent (the city, district and dong as written; no detail, no postcode)
    assert sent["total"] == out.attrs["geocode"]["requests"] == out.attrs["geocode"]["queries"] <= len(FORMS) // 2


@pytest.mark.parametrize("text, query, detail", [
    ("부산진구 전포동 341번지 17호", "부산진구 전포동 341-17", ""),
    ("전포동 341번지", "전포동 341", ""),
    ("부산진구 가야대로 785, 1층", "부산진구 가야대로 785", "1층"),
    ("가야대로 785, 101동 1001호", "가야대로 785", "101동 1001호"),
    ("가야대로 785 지하1층", "가야대로 785", "지하 1층"),
    ("가야대로785, B1", "가야대로 785", "B1"),
    ("우)47291 부산시 가야대로 ７８５ (가야동, 삼정타워)", "부산시 가야대로 785", ""),
    ("중구 중앙동 4가 35-2", "중구 중앙동4가 35-2", ""),
    ("중앙대로180번길12", "중앙대로180번길 12", ""),
    ("전포동산12번지", "전포동 산12", ""),
    ("부산진구 전포동 341 - 17", "부산진구 전포동 341-17", ""),
    ("전포동 341번지 1701호", "전포동 341", "1701호"),
    ("가야대로 지하 785", "가야대로 지하 785", ""),
    # a romanised city beside Korean names (an English form's header column pasted in front)
    ("Busan 가야대로 785", "부산광역시 가야대로 785", ""),
    ("BUSAN-SI, 부산진구 가야대로 785", "부산광역시 부산진구 가야대로 785", ""),
    ("ＢＵＳＡＮ 가야대로 ７８５", "부산광역시 가야대로 785", ""),
])
def test_the_reader_takes_the_forms_of_customer_files(text, query, detail):
    w = read(text)
    assert (w.query, w.detail) == (query, detail)


def test_the_docstring_examples_of_the_reader_and_the_judge_run():
    import toolkit.addresstext
    import toolkit.geocodes

    for module in (toolkit.addresstext, toolkit.geocodes):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0


# ------------------------------------------------------------------------------------- point 3: similar
def test_a_similar_answer_of_the_sandbox_is_not_a_match(tk):
    # an administrative dong made of two legal dongs: the sandbox answers with a lot of one of them
    lot = next(a for a in corpus.addresses() if a["region_3depth_name"] == "노포동" and not a["sub_address_no"]
               and a["mountain_yn"] == "N")
    asked = [f"금정구 청룡노포동 {lot['main_address_no']}", "부산진구 가야대로 785-99", "부산진구 가야대로 785"]
    out = tk.local.geocode(asked, progress=False)
    assert list(out["geocode_status"]) == ["similar", "similar", "matched"], out
    first, second = out["geocode_reason"].iloc[:2]
    assert first.startswith(f"similar: asked 금정구 청룡노포동 {lot['main_address_no']}, answered 부산광역시 금정구 ")
    assert "not 청룡노포동" in first and out["geocode_address"].iloc[0].startswith("부산광역시 금정구 ")
    assert second == ("similar: asked 부산진구 가야대로 785-99, answered 부산광역시 부산진구 가야대로 785 "
                      "(another number: 785)")
    assert out["x"].notna().all()                       # the similar answer's point is kept, with its status


# The real service's documented answer of the address search for "전북 삼성동 100" (its first document; the
# documentation writes total_count 4 and elides the other three).
DOCUMENTED = {
    "meta": {"total_count": 4, "pageable_count": 4, "is_end": True},
    "documents": [{
        "address_name": "전북 익산시 부송동 100", "y": "35.97664845766847", "x": "126.99597295767953",
        "address_type": "REGION_ADDR",
        "address": {"address_name": "전북 익산시 부송동 100", "region_1depth_name": "전북",
                    "region_2depth_name": "익산시", "region_3depth_name": "부송동", "region_3depth_h_name": "삼성동",
                    "h_code": "4514069000", "b_code": "4514013400", "mountain_yn": "N", "main_address_no": "100",
                    "sub_address_no": "", "x": "126.99597295767953", "y": "35.97664845766847"},
        "road_address": {"address_name": "전북 익산시 망산길 11-17", "region_1depth_name": "전북",
                         "region_2depth_name": "익산시", "region_3depth_name": "부송동", "road_name": "망산길",
                         "underground_yn": "N", "main_building_no": "11", "sub_building_no": "17",
                         "building_name": "", "zone_no": "54547", "y": "35.976749396987046",
                         "x": "126.99599512792346"}}],
}


def _real_service(answers: dict):
    """A client of a "real service" (no sandbox) whose address search answers ``answers[query]`` (else nothing)
    and records the queries sent."""
    sent = []

    def handler(request: httpx.Request) -> httpx.Response:
        q = request.url.params["query"]
        sent.append(q)
        body = answers.get(q, {"meta": {"total_count": 0, "pageable_count": 0, "is_end": True}, "documents": []})
        return httpx.Response(200, content=json.dumps(body, ensure_ascii=False).encode(),
                              headers={"Content-Type": "application/json;charset=UTF-8"})

    tk = toolkit.connect("http://127.0.0.1:9", rest_api_key="k", async_transport=httpx.MockTransport(handler))
    return tk, sent


def test_the_real_services_similar_answer_is_similar_not_matched():
    tk, sent = _real_service({"전북 삼성동 100": DOCUMENTED, "전북 익산시 부송동 100": DOCUMENTED})
    try:
        out = tk.local.geocode(["전북 삼성동 100", "전북 삼성동 100번지, 2층", "전북 익산시 부송동 100"], progress=False)
    finally:
        tk.close()
    assert sorted(sent) == ["전북 삼성동 100", "전북 익산시 부송동 100"]     # the detail is not sent
    assert list(out["geocode_status"]) == ["similar", "similar", "matched"]
    assert out["geocode_reason"].iloc[0] == ("similar: asked 전북 삼성동 100, answered 전북 익산시 부송동 100 "
                                             "(in 부송동 (administrative dong 삼성동), not 삼성동)")
    assert out["geocode_address"].iloc[0] == "전북 익산시 부송동 100" and out["x"].iloc[0] == pytest.approx(126.996, abs=1e-3)


def test_against_the_real_service_a_claim_about_the_toolkits_list_says_so():
    tk, sent = _real_service({})
    try:
        out = tk.local.geocode(["부산진구 중앙대로 692", "서울 강남구 테헤란로 152", "Gaya-daero 785, Busanjin-gu, Busan"],
                               progress=False)
    finally:
        tk.close()
    assert "부산광역시 부산진구 가야대로 785" in sent            # the romanised address went in Korean
    first, second, _ = out["geocode_reason"]
    assert first.startswith("no building numbered 692 on 중앙대로 in 부산진구; nearest: ")
    assert first.endswith("(in the toolkit's list of Busan addresses; the real service may know more)")
    assert not second.startswith("outside the sandbox's city")          # no sandbox: the service covers the country


# ------------------------------------------------------------------------------------- non-text columns
@pytest.mark.parametrize("values, said", [
    ([47291, 48000], "holds int64 values"),
    ([1.5, 2.5], "holds float64 values"),
    ([True, False], "holds bool values"),
    (["전포동 341-17", 12345], "holds a int value at row 1 (12345)"),
])
def test_a_column_that_is_not_text_is_a_parameter_error_naming_it(tk, values, said):
    with pytest.raises(ParameterError, match="'zip'") as err:
        tk.local.geocode(pd.DataFrame({"zip": values}), "zip", progress=False)
    assert said in str(err.value) and ".astype(str)" in str(err.value)


def test_an_empty_column_read_as_floats_is_empty_rows_not_an_error(tk):
    out = tk.local.geocode(pd.DataFrame({"address": [float("nan"), None]}), "address", progress=False)
    assert list(out["geocode_status"]) == ["empty", "empty"]


def test_the_guides_geocode_example_answers_as_the_guide_says(tk):
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "docs" / "guide" / "local.md").read_text("utf-8")
    line = next(ln for ln in readme.splitlines() if ln.startswith("pts = tk.local.geocode(["))
    said = readme.splitlines()[readme.splitlines().index(line) + 1]
    texts = json.loads(line[line.index("["):line.index("]") + 1])
    out = tk.local.geocode(texts, progress=False)
    statuses = said.removeprefix("# ").split(":")[0].split(", ")
    assert list(out["geocode_status"]) == statuses
    quoted = said[said.index('"') + 1:said.rindex('"')]
    head, tail = quoted.split(", …; ")
    reason = out["geocode_reason"].iloc[-1]
    assert reason.startswith(head) and reason.endswith(tail), reason


def test_a_long_text_is_no_address_and_is_read_as_its_words():
    """A query may be 1 MB: past TEXT_MAX the reader does not tokenise, split on names or read romanised parts (each
    of those cost seconds on such texts), it gives the words as they are."""
    from toolkit.addresstext import TEXT_MAX, normalise

    for text in ("a," * 300_000, "가" * 1_000_000, "Gaya-daero " * 100_000, "부산진구 " + "1-" * 200_000):
        w = read(text)
        assert (w.latin, w.number, w.roman, w.query) == (False, None, {}, normalise(text))
    assert read("가야대로 785, " + "1층 " * (TEXT_MAX // 4)).query == "가야대로 785"      # under the bound: read


def test_a_dask_column_of_numbers_is_refused_before_any_request(tk):
    dd = pytest.importorskip("dask.dataframe")
    ddf = dd.from_pandas(pd.DataFrame({"zip": [47291, 48000]}), npartitions=1)
    with pytest.raises(ParameterError, match="'zip' holds int64 values"):
        tk.local.geocode(ddf, "zip", progress=False)
