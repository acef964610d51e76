"""The front door and the documents hold together: every link of README.md and of the
pages under docs/ leads somewhere (a relative file or folder that exists, an anchor that
is a heading of the page it points at), docs/index.md lists every page, and the README
stays a five-minute read that names the two commands."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML = re.compile(r"""<(?:a|img)\b[^>]*?\b(?:href|src)=["']([^"']+)["']""", re.I)


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def links(text: str) -> list[str]:
    """The targets a Markdown page links to (Markdown and HTML links, outside code)."""
    prose = CODE.sub("", FENCE.sub("", text))
    return LINK.findall(prose) + HTML.findall(prose)


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped (backticks
    too), spaces as hyphens."""
    words = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())
    return re.sub(r"[^\w\- ]", "", words.lower()).replace(" ", "-")


def anchors(text: str) -> set[str]:
    found: set[str] = set()
    for line in FENCE.sub("", text).splitlines():
        heading = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading:
            base = slug(heading.group(1))
            name, n = base, 0
            while name in found:  # a second heading of the same words: -1, -2...
                n += 1
                name = f"{base}-{n}"
            found.add(name)
    return found


def broken(page: Path, text: str) -> list[str]:
    """Each link of ``page`` that leads nowhere, with why."""
    problems = []
    for target in links(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto:
            continue
        path, _, fragment = target.partition("#")
        where = (page.parent / path).resolve() if path else page
        if not where.exists():
            problems.append(f"{target}: no such file")
        elif fragment and where.suffix == ".md" and fragment not in anchors(where.read_text()):
            problems.append(f"{target}: no heading #{fragment} in {where.name}")
    return problems


def test_every_link_of_the_readme_and_the_docs_leads_somewhere():
    pages = documents()
    assert len(pages) >= 20
    found = {
        str(page.relative_to(ROOT)): problems
        for page in pages
        if (problems := broken(page, page.read_text()))
    }
    assert not found, "\n".join(f"{page}: {p}" for page, ps in found.items() for p in ps)
    assert sum(len(links(p.read_text())) for p in pages) >= 100  # the check reads links


def test_the_link_check_sees_a_broken_file_and_a_broken_anchor(tmp_path):
    page = tmp_path / "page.md"
    (tmp_path / "other.md").write_text("# Other page\n\n## The `make run` step\n")
    text = (
        "# Page\n\n## Two commands\n\n"
        "[ok](other.md#the-make-run-step), [here](#two-commands), [web](https://example.org),\n"
        "[gone](missing.md), [bad anchor](other.md#nowhere), [self](#nothing)\n"
        '<img src="picture.png" alt="">\n'
        "`[in code](nowhere.md)`\n```\n[in a block](nowhere.md)\n```\n"
    )
    page.write_text(text)
    assert broken(page, text) == [
        "missing.md: no such file",
        "other.md#nowhere: no heading #nowhere in other.md",
        "#nothing: no heading #nothing in page.md",
        "picture.png: no such file",
    ]


def test_the_index_lists_every_document():
    index = ROOT / "docs" / "index.md"
    listed = {(index.parent / target).resolve() for target in links(index.read_text())}
    pages = [p for p in documents() if p.parent != ROOT and p != index]
    missing = [str(p.relative_to(ROOT)) for p in pages if p.resolve() not in listed]
    assert not missing, "docs/index.md does not list: " + ", ".join(missing)


def test_the_readme_is_a_short_front_door():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 200
    assert "make run" in readme and "make test" in readme
    picture = ROOT / "docs" / "table-phone.png"
    assert 'src="docs/table-phone.png"' in readme
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert picture.stat().st_size < 100_000  # optimised: a phone's screen, not a poster
