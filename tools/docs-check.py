#!/usr/bin/env python3
"""Checks of the documentation that mkdocs and Doxygen do not make (tools/docs-check.sh).

  docs-check.py blocks OUT_DIR   every ```c block of README.md must be byte-identical to a file
                                 of docs/snippets/; every ```c block of a page must include one
                                 (--8<--) or is written to OUT_DIR to be compiled; every
                                 snippet must be shown somewhere.
  docs-check.py layout          the layout block of docs/development.md names every directory
                                 of the tree (the top level and tools/, test/ one down, as
                                 git lists them) and nothing that does not exist.
  docs-check.py links SITE_DIR   every relative link and image of README.md names a file of the
                                 repository; every href and src of the built site (but the API
                                 reference's own pages) names a file of the site, and every
                                 #fragment an id of its page.

Prints one line per problem and exits 1 when there is any.
"""
import html.parser
import os
import re
import sys
import urllib.parse

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SNIPPETS = os.path.join(ROOT, "docs", "snippets")
INCLUDE = re.compile(r'^\s*--8<--\s+"([^"]+)"\s*$')


def fenced_blocks(text, language):
    """(line number, body) of every fenced block of `language` in Markdown text."""
    blocks, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        m = re.match(r"^(\s*)(`{3,})\s*" + language + r"\s*$", lines[i])
        if not m:
            i += 1
            continue
        fence, start, body = m.group(2), i + 1, []
        i += 1
        while i < len(lines) and lines[i].strip() != fence:
            body.append(lines[i])
            i += 1
        blocks.append((start, "\n".join(body) + "\n"))
        i += 1
    return blocks


def pages():
    docs = os.path.join(ROOT, "docs")
    return sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))


def check_blocks(out_dir):
    problems = []
    snippets = {f: open(os.path.join(SNIPPETS, f), encoding="utf-8").read()
                for f in sorted(os.listdir(SNIPPETS)) if f.endswith(".c")}
    shown = set()
    readme = os.path.join(ROOT, "README.md")
    for line, body in fenced_blocks(open(readme, encoding="utf-8").read(), "c"):
        same = [f for f, text in snippets.items() if text == body]
        if same:
            shown.update(same)
        else:
            problems.append(f"README.md:{line}: this C block is not byte-identical to any "
                            f"file of docs/snippets/ (copy the snippet, do not edit it here)")
    os.makedirs(out_dir, exist_ok=True)
    for page in pages():
        name = os.path.relpath(page, ROOT)
        text = open(page, encoding="utf-8").read()
        for m in re.finditer(INCLUDE.pattern, text, re.M):
            path = m.group(1)
            if not os.path.isfile(os.path.join(ROOT, path)):
                problems.append(f"{name}: includes {path}, which does not exist")
            elif path.startswith("docs/snippets/"):
                shown.add(os.path.basename(path))
        for line, body in fenced_blocks(text, "c"):
            if all(INCLUDE.match(l) for l in body.strip().split("\n")):
                continue
            # A block written in the page: compiled as it stands (tools/docs-check.sh).
            stem = os.path.splitext(os.path.basename(page))[0]
            with open(os.path.join(out_dir, f"{stem}_line{line}.c"), "w", encoding="utf-8") as f:
                if "#include" not in body:
                    f.write('#include "fixsteer/fixsteer.h"\n')
                f.write(f'#line {line + 1} "{name}"\n{body}')
    for f in snippets:
        if f not in shown:
            problems.append(f"docs/snippets/{f}: shown by no page and not in README.md")
    return problems


class Anchors(html.parser.HTMLParser):
    """The ids of a page and the links it makes."""

    def __init__(self):
        super().__init__()
        self.ids, self.links = set(), []

    def handle_starttag(self, tag, attrs):
        for key, value in attrs:
            if key in ("id", "name") and value:
                self.ids.add(value)
            if key in ("href", "src") and value is not None:
                self.links.append((tag, value))


def external(url):
    parts = urllib.parse.urlsplit(url)
    return parts.scheme or parts.netloc or url.startswith(("mailto:", "javascript:", "data:"))


def check_links(site):
    problems = []
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    for m in re.finditer(r"!?\[[^\]]*\]\(([^)\s]+)\)", readme):
        url = m.group(1)
        path = urllib.parse.urlsplit(url).path
        if external(url) or not path:
            continue
        if not os.path.exists(os.path.join(ROOT, urllib.parse.unquote(path))):
            problems.append(f"README.md: link to {url}: no such file")
    parsed = {}

    def page(path):
        if path not in parsed:
            p = Anchors()
            p.feed(open(path, encoding="utf-8", errors="replace").read())
            parsed[path] = p
        return parsed[path]

    api = os.path.join(site, "api") + os.sep
    for directory, _, files in os.walk(site):
        for f in files:
            path = os.path.join(directory, f)
            if not f.endswith(".html") or path.startswith(api):
                continue
            for tag, url in page(path).links:
                if external(url):
                    continue
                parts = urllib.parse.urlsplit(url)
                target = path
                if parts.path:
                    # 404.html links from the site's root: it is served for any path.
                    base = site if parts.path.startswith("/") else directory
                    relative = urllib.parse.unquote(parts.path).lstrip("/")
                    target = os.path.normpath(os.path.join(base, relative))
                    if os.path.isdir(target):
                        target = os.path.join(target, "index.html")
                    if not os.path.isfile(target):
                        problems.append(f"{os.path.relpath(path, site)}: <{tag}> {url}: no such file")
                        continue
                if parts.fragment and target.endswith(".html"):
                    if urllib.parse.unquote(parts.fragment) not in page(target).ids:
                        problems.append(f"{os.path.relpath(path, site)}: {url}: no such anchor")
    if not os.path.isfile(os.path.join(site, "api", "index.html")):
        problems.append("the API reference is missing from the site (api/index.html)")
    return problems


def check_layout():
    import subprocess
    text = open(os.path.join(ROOT, "docs", "development.md"), encoding="utf-8").read()
    section = text[text.index("## Layout"):]
    block = section[section.index("```") + 3:]
    block = block[:block.index("```")]
    named, parent = set(), ""
    for line in block.split("\n"):
        m = re.match(r"^( *)(\S+)", line)
        if not m or len(m.group(1)) > 2:
            continue  # continuation lines describe, they do not name
        entry = m.group(2)
        if m.group(1) == "":
            parent = entry if entry.endswith("/") else ""
            named.add(entry)
            if entry.count("/") > 1:  # include/fixsteer/ names include/ too
                named.add(entry.split("/")[0] + "/")
        elif parent:
            named.add(parent + entry)
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    wanted = set()
    for f in files:
        parts = f.split("/")
        if len(parts) > 1 and not parts[0].startswith("."):
            wanted.add(parts[0] + "/")
        if len(parts) > 2 and parts[0] in ("tools", "test", "docs"):
            wanted.add(parts[0] + "/" + parts[1] + "/")
    problems = [f"docs/development.md, Layout: {d} is missing" for d in sorted(wanted - named)
                if not (d.count("/") == 2 and d.split("/")[0] + "/" not in named)]
    for entry in sorted(named):
        if not os.path.exists(os.path.join(ROOT, entry.rstrip("/"))):
            problems.append(f"docs/development.md, Layout: {entry} does not exist")
    # Every file the descriptions name (main.c, world_*.h, src/*.h) matches a file of the
    # entry's directory (or of the repository, for a name with a slash).
    import fnmatch
    directory = ""
    for line in block.split("\n"):
        m = re.match(r"^( *)(\S+)", line)
        if m and len(m.group(1)) <= 2:
            entry = m.group(2)
            if m.group(1) == "":
                top = entry if entry.endswith("/") else ""
                directory = top
            else:
                directory = top + entry if entry.endswith("/") else top
            line = line[m.end():]
        for name in re.findall(r"[\w*./-]+\.(?:c|h|cpp|py|sh|mjs|yml|ld)\b", line):
            pattern = name if "/" in name else directory + name
            if not any(fnmatch.fnmatchcase(f, pattern) for f in files):
                problems.append(f"docs/development.md, Layout: {name} names no file (under {directory or 'the top'})")
    return problems


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "layout":
        problems = check_layout()
    elif len(sys.argv) == 3 and sys.argv[1] in ("blocks", "links"):
        problems = check_blocks(sys.argv[2]) if sys.argv[1] == "blocks" else check_links(sys.argv[2])
    else:
        sys.exit(__doc__)
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
