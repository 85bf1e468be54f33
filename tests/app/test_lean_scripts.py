"""The pages' scripts are served without their whole-line comments, and otherwise as they are
(app/web/lean_scripts.py)."""

from __future__ import annotations

import gzip
import subprocess
from pathlib import Path

import pytest

from app.server.paths import STATIC
from app.web.lean_scripts import Unsure, comment_lines, strip_comment_lines

SCRIPTS = sorted(STATIC.rglob("*.js"))


def test_lines_holding_only_a_comment_are_taken_out_and_code_lines_are_kept_whole():
    source = "\n".join([
        "// a line comment",
        "const a = 1; // a comment after code stays",
        "    // an indented one",
        "/** a block",
        " * over lines",
        " */",
        "/* one line */",
        "const b = 2; /* inside */ const c = 3;",
        "/* a block with code after */ const d = 4;",
        "export { a, b, c, d };",
    ])
    assert strip_comment_lines(source).split("\n") == [
        "const a = 1; // a comment after code stays",
        "const b = 2; /* inside */ const c = 3;",
        "/* a block with code after */ const d = 4;",
        "export { a, b, c, d };",
    ]


def test_a_template_literals_lines_are_text_even_where_they_look_like_comments():
    source = "\n".join([
        "const html = `",
        "// not a comment: the template's text",
        "/* nor this */",
        "${names.map((n) => `<li>${n}</li>`).join('')}",
        "// still the template's",
        "`;",
        "// a comment again",
        "const url = `https://example.org/${path}`; // after code",
    ])
    assert comment_lines(source) == {6}


def test_strings_and_regular_expressions_that_hold_comment_marks_or_quotes_do_not_mislead_it():
    source = "\n".join([
        'const s = "// in a string", t = \'/* and here */\';',
        "const r = /[\"'`]\\/\\//g, q = x / 2 / y;",
        "if (ok) return /`/.test(s);",
        "// dropped",
        "const u = `${ { a: 1 }.a }` + s.replace(/\\/\\*/, '');",
        "// dropped too",
    ])
    assert comment_lines(source) == {3, 5}


def test_a_script_the_scanner_cannot_follow_is_served_as_it_is():
    unterminated = "const a = `open\n// inside the open template\n"
    with pytest.raises(Unsure):
        comment_lines(unterminated)
    assert strip_comment_lines(unterminated) == unterminated
    runaway = 'const s = "no end\n// after\n'
    assert strip_comment_lines(runaway) == runaway


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(STATIC)))
def test_every_script_stripped_is_still_valid_javascript(script: Path, tmp_path: Path):
    source = script.read_text(encoding="utf-8")
    comment_lines(source)  # the scanner follows every script of the site to its end
    module = tmp_path / (script.stem + ".mjs")
    module.write_text(strip_comment_lines(source), encoding="utf-8")
    checked = subprocess.run(["node", "--check", str(module)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


def test_the_scripts_weigh_a_sixth_less_compressed():
    before = sum(len(gzip.compress(p.read_bytes())) for p in SCRIPTS)
    after = sum(len(gzip.compress(strip_comment_lines(p.read_text(encoding="utf-8")).encode())) for p in SCRIPTS)
    assert after < 0.9 * before, (before, after)


def test_a_script_is_served_stripped_with_the_files_validators_and_answers_a_conditional_request(client):
    source = (STATIC / "js" / "kit.js").read_text(encoding="utf-8")
    r = client.get("/static/js/kit.js")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    assert r.text == strip_comment_lines(source) and r.text != source
    assert not any(line.lstrip().startswith("//") for line in r.text.split("\n"))
    etag = r.headers["etag"]
    assert client.get("/static/js/kit.js", headers={"if-none-match": etag}).status_code == 304
    assert client.get("/static/js/kit.js", headers={"if-modified-since": r.headers["last-modified"]}).status_code == 304
    zipped = client.get("/static/js/table.js", headers={"accept-encoding": "gzip"})
    assert zipped.headers["content-encoding"] == "gzip"
    # what is not a script is served as the file is
    css = next(STATIC.rglob("*.css"))
    assert client.get(f"/static/{css.relative_to(STATIC).as_posix()}").content == css.read_bytes()


def test_an_edited_script_is_stripped_again(tmp_path: Path):
    from app.web.lean_scripts import LeanScripts

    (tmp_path / "a.js").write_text("// one\nexport const a = 1;\n", encoding="utf-8")
    lean = LeanScripts(directory=str(tmp_path))
    path, stat_result = lean.lookup_path("a.js")
    assert stat_result is not None
    first = lean.file_response(path, stat_result, {"type": "http", "method": "GET", "headers": []})
    assert first.body == b"export const a = 1;\n"
    (tmp_path / "a.js").write_text("// two\nexport const a = 22;\n", encoding="utf-8")
    path, stat_result = lean.lookup_path("a.js")
    assert stat_result is not None
    again = lean.file_response(path, stat_result, {"type": "http", "method": "GET", "headers": []})
    assert again.body == b"export const a = 22;\n"
