#!/usr/bin/env python3
"""The C# binding's reference page, docs/csharp-api.md, made from the /// comments of the
public types and members of bindings/dotnet/src/*.cs (and the Unity package's plain C#,
bindings/dotnet/unity/Runtime/*.cs, but the files that need Unity).

  csharp-ref.py            writes docs/csharp-api.md
  csharp-ref.py --check    exits 1 when docs/csharp-api.md is not what it would write, or
                           when a public type or member has no comment (tools/docs-check.sh)
  csharp-ref.py --self-test  the parser on a small source: a member without a comment is found

Only the binding's own layout is read: `///` lines, then the declaration up to its `{`, `;`
or `=>`; `public` declarations are listed under the type declared last (enum members under
their enum). Prints the problems it finds.
"""
import glob
import html
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PAGE = os.path.join(ROOT, "docs", "csharp-api.md")
SOURCES = ["bindings/dotnet/src/*.cs", "bindings/dotnet/unity/Runtime/*.cs"]
UNITY_ONLY = re.compile(r"^\s*using UnityEngine;", re.M)
TYPE = re.compile(r"^((?:(?:public|internal|private|protected|static|sealed|abstract|readonly|partial)\s+)*)"
                  r"(class|struct|enum|interface)\s+(\w+)")

HEAD = """# C# API reference

The public types and members of the C# binding (`bindings/dotnet/src/`) and of the Unity
package's plain C# (`bindings/dotnet/unity/Runtime/`), with their doc comments:
[C# and Unity](dotnet.md) shows them at work, in programs that the dotnet suite builds and runs
under Mono. This page is made by `python3 tools/csharp-ref.py` from the sources, and
`tools/docs-check.sh` fails when it is stale or a public name has no comment. Numbers are the
library's Q16.16 integers (`int`, 65536 = 1.0) unless a name says otherwise
(`Fix16.ToDouble`).

"""


def text_of(doc):
    """The XML doc comment as one line of Markdown."""
    doc = re.sub(r'<see\s+cref="([^"]+)"\s*/>', lambda m: "`%s`" % re.sub(r"^\w:", "", m.group(1)), doc)
    doc = re.sub(r'<(?:paramref|typeparamref)\s+name="([^"]+)"\s*/>', r"`\1`", doc)
    doc = re.sub(r"<c>(.*?)</c>", r"`\1`", doc)
    doc = re.sub(r'<param\s+name="([^"]+)">', r" `\1`: ", doc)
    doc = re.sub(r"<returns>", " Returns ", doc)
    doc = re.sub(r"<remarks>", " ", doc)
    doc = re.sub(r"<[^>]+>", " ", doc)
    doc = html.unescape(doc).replace("|", "\\|")
    return " ".join(doc.split())


def parse(source, name):
    """[(type kind, type name, type doc, [(declaration, doc)])] and problems of one file."""
    lines = source.split("\n")
    types, problems, i, doc = [], [], 0, []
    while i < len(lines):
        stripped = lines[i].strip()
        if stripped.startswith("///"):
            doc.append(stripped[3:].strip())
            i += 1
            continue
        if stripped.startswith("[") and stripped.endswith("]"):
            i += 1
            continue
        if not stripped or stripped.startswith("//") or stripped.startswith("}"):
            doc = [] if not stripped.startswith("//") else doc
            i += 1
            continue
        decl, j = stripped, i
        while (not re.search(r"[{;]|=>", decl) and j + 1 < len(lines) and
               not lines[j + 1].strip().startswith(("///", "}"))):
            j += 1
            decl += " " + lines[j].strip()
        decl = re.split(r"\s*(?:\{|;|=>)", decl, maxsplit=1)[0].strip()
        t = TYPE.match(decl)
        if t:
            public = "public" in t.group(1).split()
            # A type that is not public hides its members: they are listed under nothing.
            types.append((t.group(2), t.group(3), text_of(" ".join(doc)), [], public))
            if public and not doc and "partial" not in t.group(1).split():
                problems.append("%s:%d: public %s %s has no comment" % (name, i + 1, t.group(2), t.group(3)))
        elif types and not types[-1][4]:
            pass
        elif types and types[-1][0] == "enum" and re.match(r"^\w+(\s*=.*)?,?$", stripped):
            types[-1][3].append((re.sub(r",$", "", stripped), text_of(" ".join(doc))))
        elif decl.startswith("public ") and types:
            shown = re.sub(r"^public\s+", "", decl)
            shown = re.sub(r"\s*:\s*(this|base)\(.*$", "", shown)
            types[-1][3].append((shown, text_of(" ".join(doc))))
            if not doc:
                problems.append("%s:%d: public %s has no comment" % (name, i + 1, shown))
        doc = []
        i = j + 1
    return [t[:4] for t in types if t[4]], problems


def sources():
    files = []
    for pattern in SOURCES:
        for path in sorted(glob.glob(os.path.join(ROOT, pattern))):
            text = open(path, encoding="utf-8").read()
            if not UNITY_ONLY.search(text):
                files.append((os.path.relpath(path, ROOT), text))
    return files


def page():
    out, problems, documented = [HEAD], [], {}
    parsed = []
    for name, text in sources():
        types, found = parse(text, name)
        problems += found
        parsed.append((name, types))
        for kind, tname, tdoc, members in types:
            documented[tname] = documented.get(tname, "") or tdoc
    for tname, tdoc in documented.items():
        if not tdoc:
            problems.append("public type %s has no comment in any file" % tname)
    for name, types in parsed:
        if not types:
            continue
        out.append("## %s\n\n" % name.split("/")[-1])
        for kind, tname, tdoc, members in types:
            out.append("### %s %s\n\n%s\n\n" % (tname, kind, tdoc or "(one part of a partial type; its comment is with the other part)"))
            for decl, doc in members:
                out.append("- `%s`%s\n" % (decl, (": " + doc) if doc else ""))
            if members:
                out.append("\n")
    return "".join(out).rstrip("\n") + "\n", problems


def self_test():
    source = ("/// <summary>A thing.</summary>\npublic sealed class Thing\n{\n"
              "    /// <summary>Its size, <see cref=\"Thing\"/>.</summary>\n    public int Size;\n"
              "    public void Undocumented() {}\n    private void Hidden() {}\n}\n"
              "/// <summary>Kinds.</summary>\npublic enum Kind\n{\n    /// <summary>one</summary>\n    One = 1,\n}\n"
              "internal struct Native\n{\n    public int Hidden;\n}\n")
    types, problems = parse(source, "t.cs")
    ok = (len(types) == 2 and types[0][1] == "Thing" and types[0][3][0] == ("int Size", "Its size, `Thing`.") and
          len(types[0][3]) == 2 and types[1][3] == [("One = 1", "one")] and
          problems == ["t.cs:6: public void Undocumented() has no comment"])
    print("csharp-ref self-test: %s" % ("pass" if ok else "FAIL %r %r" % (types, problems)))
    return ok


def main(argv):
    if "--self-test" in argv:
        return 0 if self_test() else 1
    text, problems = page()
    for p in problems:
        print(p)
    if "--check" in argv:
        current = open(PAGE, encoding="utf-8").read() if os.path.exists(PAGE) else ""
        if current != text:
            print("docs/csharp-api.md is stale: python3 tools/csharp-ref.py writes it")
            return 1
        return 1 if problems else 0
    with open(PAGE, "w", encoding="utf-8") as f:
        f.write(text)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
