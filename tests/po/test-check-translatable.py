#!/usr/bin/env python3
"""check-translatable.py passes a clean tree and fails each kind of slip it exists for.

Each case writes a small tree (po/POTFILES, app/, widgets/, evaluators/) into a temporary
directory, runs the checker on it and compares its exit status: 0 for the clean tree, 1
for a tree with one slip, whose message must name the file.
"""
import pathlib
import subprocess
import sys
import tempfile

CHECKER = pathlib.Path(__file__).with_name("check-translatable.py")

CLEAN_C = '''#include <glib/gi18n-lib.h>
static void
show (GtkWidget *label)
{
  gtk_label_set_text (GTK_LABEL (label), _("Nothing selected"));
  gtk_widget_set_tooltip_text (label, "%s");
}
'''
CLEAN_UI = '''<interface>
  <object class="GtkLabel">
    <property name="label" translatable="yes">Live preview</property>
    <property name="tooltip-text">%s</property>
  </object>
</interface>
'''

CASES = {
    "clean": ({}, 0, None),
    "a label set from a bare literal": (
        {"app/tw-bad.c": 'gtk_label_set_text (GTK_LABEL (l), "Not translated");\n'},
        1, "app/tw-bad.c:1"),
    "a chooser title from a bare literal": (
        {"widgets/tw-bad.c": 'd = gtk_file_chooser_native_new ("Export as C", w, a, NULL, NULL);\n'},
        1, "widgets/tw-bad.c:1"),
    "a .ui label without translatable": (
        {"app/tw-bad.ui": '<interface><object class="GtkButton">\n'
                          '<property name="label">Step</property></object></interface>\n'},
        1, "app/tw-bad.ui:2"),
    "a marked file missing from POTFILES": (
        {"evaluators/tw-extra.c": 'const char *s = _("Words");\n'},
        1, "evaluators/tw-extra.c"),
    "POTFILES naming a file that is gone": (
        {"po/POTFILES": "app/tw-good.c\napp/tw-good.ui\napp/tw-gone.c\n"},
        1, "app/tw-gone.c"),
}


def write_tree(root, extra):
    files = {
        "po/POTFILES": "# comment\napp/tw-good.c\napp/tw-good.ui\n",
        "app/tw-good.c": CLEAN_C,
        "app/tw-good.ui": CLEAN_UI,
        "widgets/.keep": "",
        "evaluators/.keep": "",
    }
    files.update(extra)
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def main():
    failures = 0
    for name, (extra, expected, named) in CASES.items():
        with tempfile.TemporaryDirectory() as tmp:
            write_tree(pathlib.Path(tmp), extra)
            run = subprocess.run([sys.executable, str(CHECKER), tmp],
                                 capture_output=True, text=True, check=False)
        ok = run.returncode == expected and (named is None or named in run.stdout)
        print(f"{'ok' if ok else 'FAIL'}: {name} (exit {run.returncode}, expected {expected})")
        if not ok:
            print(run.stdout + run.stderr)
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
