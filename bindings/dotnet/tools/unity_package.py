#!/usr/bin/env python3
"""Assembles the Unity package (make unity-package; checked by tools/dotnet-check.sh).

  unity_package.py OUT_DIR [--linux SO] [--windows DLL] [--require-natives]

OUT_DIR/com.fixsteer.fixsteer/ gets bindings/dotnet/unity/ (package.json, Runtime/ with its
asmdef, WorldRunner.cs and the FixsteerWorld component, Plugins/ with the plugin import
settings), the binding's sources (bindings/dotnet/src/*.cs) in Runtime/Binding/, the native
libraries given (the Linux x86-64 libfixsteer.so, the Windows x86-64 fixsteer.dll) in
Plugins/Linux/x86_64/ and Plugins/Windows/x86_64/, and a .meta file for every file and folder
that has none (Unity ignores the assets of an installed package that lack one). Their GUIDs
derive from the path, so every build writes the same files. Then OUT_DIR/
com.fixsteer.fixsteer-VERSION.tgz (package/ at its root, as Unity's "Add package from
tarball" reads it), with fixed times and owners, so the same inputs give the same bytes.

Checks as it goes, and exits 1 naming the problem: package.json's version equals
include/fixsteer/version.h's; the manifest and the asmdef are valid JSON with the fields Unity
needs; every plugin has its .meta (its platform settings) and, with --require-natives, its
library; no two .meta files share a GUID. Prints one line per check ("ok: ..." / "FAIL: ...")
and ends with "unity-package: N passed, N failed".
"""
import hashlib
import io
import json
import os
import re
import shutil
import sys
import tarfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
LAYOUT = os.path.join(ROOT, "bindings", "dotnet", "unity")
NAME = "com.fixsteer.fixsteer"
PLUGINS = {"linux": "Plugins/Linux/x86_64/libfixsteer.so", "windows": "Plugins/Windows/x86_64/fixsteer.dll"}

META_TAIL = "  userData: \n  assetBundleName: \n  assetBundleVariant: \n"
IMPORTER = {
    ".cs": "MonoImporter:\n  externalObjects: {}\n  serializedVersion: 2\n  defaultReferences: []\n"
           "  executionOrder: 0\n  icon: {instanceID: 0}\n",
    ".asmdef": "AssemblyDefinitionImporter:\n  externalObjects: {}\n",
    ".json": "TextScriptImporter:\n  externalObjects: {}\n",
    ".md": "TextScriptImporter:\n  externalObjects: {}\n",
}

problems = []
checked = [0]


def report(ok, what):
    print("%s: %s" % ("ok" if ok else "FAIL", what))
    checked[0] += 1
    if not ok:
        problems.append(what)


def guid(rel):
    return hashlib.md5(("fixsteer-unity:" + rel).encode()).hexdigest()


def meta_text(rel, is_dir):
    head = "fileFormatVersion: 2\nguid: %s\n" % guid(rel)
    if is_dir:
        return head + "folderAsset: yes\nDefaultImporter:\n  externalObjects: {}\n" + META_TAIL
    ext = os.path.splitext(rel)[1]
    return head + IMPORTER.get(ext, "DefaultImporter:\n  externalObjects: {}\n") + META_TAIL


def library_version():
    text = open(os.path.join(ROOT, "include", "fixsteer", "version.h"), encoding="utf-8").read()
    part = lambda n: re.search(r"#define FXS_VERSION_%s (\d+)" % n, text).group(1)
    return "%s.%s.%s" % (part("MAJOR"), part("MINOR"), part("PATCH"))


def assemble(out, natives):
    pkg = os.path.join(out, NAME)
    shutil.rmtree(pkg, ignore_errors=True)
    shutil.copytree(LAYOUT, pkg, ignore=shutil.ignore_patterns("README.md"))
    binding = os.path.join(pkg, "Runtime", "Binding")
    os.makedirs(binding)
    src = os.path.join(ROOT, "bindings", "dotnet", "src")
    for f in sorted(os.listdir(src)):
        if f.endswith(".cs"):
            shutil.copy(os.path.join(src, f), binding)
    for key, rel in PLUGINS.items():
        if natives.get(key):
            shutil.copy(natives[key], os.path.join(pkg, rel))
    # A .meta for each file and folder without one (the plugins' come from the layout).
    for d, dirs, files in os.walk(pkg):
        dirs.sort()
        for name in sorted(dirs) + sorted(files):
            if name.endswith(".meta"):
                continue
            path = os.path.join(d, name)
            rel = os.path.relpath(path, pkg)
            if not os.path.exists(path + ".meta"):
                with open(path + ".meta", "w", encoding="utf-8") as f:
                    f.write(meta_text(rel, os.path.isdir(path)))
    return pkg


def check(pkg, natives, require):
    version = library_version()
    try:
        manifest = json.load(open(os.path.join(pkg, "package.json"), encoding="utf-8"))
    except ValueError as e:
        manifest = {}
        report(False, "package.json is not JSON: %s" % e)
    report(manifest.get("name") == NAME and re.match(r"^\d{4}\.\d$", manifest.get("unity", "")) is not None
           and manifest.get("displayName"), "package.json names %s, a Unity version and a display name" % NAME)
    report(manifest.get("version") == version,
           "package.json's version %s is the library's (version.h: %s)" % (manifest.get("version"), version))
    try:
        asmdef = json.load(open(os.path.join(pkg, "Runtime", "Fixsteer.asmdef"), encoding="utf-8"))
    except ValueError as e:
        asmdef = {}
        report(False, "Runtime/Fixsteer.asmdef is not JSON: %s" % e)
    report(asmdef.get("name") == "Fixsteer" and asmdef.get("allowUnsafeCode") is False,
           "Runtime/Fixsteer.asmdef: assembly Fixsteer, no unsafe code")
    cs = sorted(f for f in os.listdir(os.path.join(pkg, "Runtime", "Binding")) if f.endswith(".cs"))
    report("World.cs" in cs and "NativeMethods.cs" in cs, "Runtime/Binding holds the binding's %d sources" % len(cs))
    unity_only = [f for f in os.listdir(os.path.join(pkg, "Runtime"))
                  if f.endswith(".cs") and "using UnityEngine;" in open(os.path.join(pkg, "Runtime", f)).read()]
    report(unity_only == ["FixsteerWorld.cs"], "Runtime/FixsteerWorld.cs is the one file that needs Unity")
    for key, rel in PLUGINS.items():
        meta = os.path.join(LAYOUT, rel + ".meta")
        text = open(meta, encoding="utf-8").read() if os.path.exists(meta) else ""
        platform = {"linux": "Linux64", "windows": "Win64"}[key]
        report(re.search(r"Standalone: %s\n    second:\n      enabled: 1" % platform, text) is not None,
               "%s.meta enables the plugin for Standalone %s only" % (rel, platform))
        present = os.path.exists(os.path.join(pkg, rel))
        if require or natives.get(key):
            report(present, "%s is in the package" % rel)
        else:
            print("note: %s left out (give --%s)" % (rel, key))
    guids = {}
    for d, _, files in os.walk(pkg):
        for f in files:
            if f.endswith(".meta"):
                g = re.search(r"^guid: ([0-9a-f]{32})$", open(os.path.join(d, f)).read(), re.M)
                if g:
                    guids.setdefault(g.group(1), []).append(os.path.join(d, f))
                else:
                    report(False, "%s has no GUID" % os.path.join(d, f))
    missing = [os.path.relpath(os.path.join(d, n), pkg) for d, dirs, files in os.walk(pkg)
               for n in dirs + files if not n.endswith(".meta") and not os.path.exists(os.path.join(d, n) + ".meta")]
    report(not missing, "every file and folder has its .meta%s" % (": " + ", ".join(missing) if missing else ""))
    report(all(len(v) == 1 for v in guids.values()), "the %d GUIDs are unique" % len(guids))
    return version


def tarball(out, pkg, version):
    path = os.path.join(out, "%s-%s.tgz" % (NAME, version))
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for d, dirs, files in os.walk(pkg):
            dirs.sort()
            for name in sorted(dirs) + sorted(files):
                full = os.path.join(d, name)
                info = tar.gettarinfo(full, "package/" + os.path.relpath(full, pkg))
                info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
                info.mode = 0o755 if info.isdir() else 0o644
                if info.isdir():
                    tar.addfile(info)
                else:
                    with open(full, "rb") as f:
                        tar.addfile(info, f)
    import gzip
    with open(path, "wb") as f:
        with gzip.GzipFile(fileobj=f, mode="wb", mtime=0, filename="") as z:
            z.write(data.getvalue())
    return path


def main(argv):
    if not argv or argv[0].startswith("-"):
        print(__doc__)
        return 2
    out = argv[0]
    natives = {}
    for key in PLUGINS:
        if "--" + key in argv:
            natives[key] = argv[argv.index("--" + key) + 1]
            if not os.path.isfile(natives[key]):
                report(False, "--%s %s: no such file" % (key, natives[key]))
                print("unity-package: 0 passed, 1 failed")
                return 1
    os.makedirs(out, exist_ok=True)
    pkg = assemble(out, natives)
    version = check(pkg, natives, "--require-natives" in argv)
    if not problems:
        print("package: %s" % tarball(out, pkg, version))
    print("unity-package: %d passed, %d failed" % (checked[0] - len(problems), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
