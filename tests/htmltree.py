"""Reading the HTML pages as a tree (html5lib, the parser browsers use) for the tests of ``--html``."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import html5lib


def parse(html: str) -> ET.Element:
    """The document's root element; html5lib parses like a browser, so a page it reads is a page they read."""
    parser = html5lib.HTMLParser(strict=False, namespaceHTMLElements=False)
    root: ET.Element = parser.parse(html)
    return root


def text(element: ET.Element | None) -> str:
    """The element's text with its whitespace collapsed (what a person reads)."""
    if element is None:
        return ""
    return re.sub(r"\s+", " ", "".join(element.itertext())).strip()


def classes(element: ET.Element) -> set[str]:
    return set((element.get("class") or "").split())


def having(root: ET.Element, tag: str, css_class: str | None = None) -> list[ET.Element]:
    """Every ``tag`` element under ``root`` (with ``css_class`` among its classes)."""
    return [e for e in root.iter(tag) if css_class is None or css_class in classes(e)]


def ids(root: ET.Element) -> dict[str, ET.Element]:
    return {e.get("id", ""): e for e in root.iter() if e.get("id")}


def headings(root: ET.Element) -> Iterator[tuple[int, str]]:
    """Every heading in document order, as (level, text)."""
    for element in root.iter():
        if isinstance(element.tag, str) and re.fullmatch(r"h[1-6]", element.tag):
            yield int(element.tag[1]), text(element)


def card_text(card: ET.Element) -> str:
    """The canonical text of a drawn card, read from its title (``Number 12``, ``Lucky 13 (L13)``)."""
    title = card.get("title", "").removesuffix(" (differs)")
    found = re.search(r"\(([^()]+)\)$", title)
    return found.group(1) if found else title.split()[-1]
