#!/usr/bin/env python3
"""Fails when a user-visible string cannot be translated.

- every file that marks strings for translation is listed in po/POTFILES, and every
  file POTFILES lists exists;
- in app/ and widgets/, the GTK calls that put text on screen are given _("…"), not a
  bare literal;
- in .ui files, text properties carry translatable="yes".
Names that are not words (a lone "%s", "CPU", numbers, markup-free symbols) are allowed.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
UI_SOURCES = ("app", "widgets")
MARKED_SOURCES = ("app", "widgets", "evaluators")

# A call that shows its string argument to the user, and which argument it is.
SETTERS = {
    "gtk_label_set_text": 1, "gtk_label_set_label": 1, "gtk_label_new": 0,
    "gtk_button_set_label": 1, "gtk_button_new_with_label": 0,
    "gtk_button_new_with_mnemonic": 0, "gtk_widget_set_tooltip_text": 1,
    "gtk_window_set_title": 1, "gtk_progress_bar_set_text": 1,
    "gtk_file_chooser_native_new": 0, "gtk_file_filter_set_name": 1,
    "gtk_entry_set_placeholder_text": 1, "gtk_check_button_new_with_label": 0,
}
TEXT_PROPERTIES = ("label", "tooltip-text", "title", "text", "placeholder-text", "subtitle")


def is_words(text):
    """Text a translator would translate: two or more letters in a row, not a key name."""
    return re.search(r"[A-Za-z]{2,}", text) is not None


def listed_files():
    potfiles = ROOT / "po" / "POTFILES"
    return [line.strip() for line in potfiles.read_text().splitlines()
            if line.strip() and not line.startswith("#")]


def source_files(folders, suffixes):
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in suffixes and path.is_file():
                yield path


def call_arguments(text, start):
    """The top-level arguments of the call whose '(' is at text[start]."""
    depth, args, current, i = 0, [], [], start
    in_string = False
    while i < len(text):
        c = text[i]
        if in_string:
            current.append(c)
            if c == "\\":
                current.append(text[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            current.append(c)
        elif c == "(":
            depth += 1
            if depth > 1:
                current.append(c)
        elif c == ")":
            depth -= 1
            if depth == 0:
                args.append("".join(current).strip())
                return args
            current.append(c)
        elif c == "," and depth == 1:
            args.append("".join(current).strip())
            current = []
        else:
            current.append(c)
        i += 1
    return args


def main():
    problems = []
    listed = set(listed_files())

    for name in listed:
        if not (ROOT / name).is_file():
            problems.append(f"po/POTFILES lists {name}, which does not exist")
    for path in source_files(MARKED_SOURCES, {".c", ".ui"}):
        text = path.read_text(encoding="utf-8")
        rel = str(path.relative_to(ROOT))
        marks = re.search(r'\b_\("|\bN_\("|translatable="yes"|g_dngettext\s*\(', text)
        if marks and rel not in listed:
            problems.append(f"{rel} marks strings for translation but is not in po/POTFILES")

    for path in source_files(UI_SOURCES, {".c"}):
        text = path.read_text(encoding="utf-8")
        rel = str(path.relative_to(ROOT))
        for match in re.finditer(r"\b(" + "|".join(SETTERS) + r")\s*\(", text):
            args = call_arguments(text, match.end() - 1)
            index = SETTERS[match.group(1)]
            if index >= len(args):
                continue
            arg = args[index]
            literal = re.fullmatch(r'"((?:[^"\\]|\\.)*)"', arg)
            if literal and is_words(literal.group(1)):
                line = text.count("\n", 0, match.start()) + 1
                problems.append(f"{rel}:{line}: {match.group(1)} shows \"{literal.group(1)}\" "
                                "untranslated: wrap it in _()")

    for path in source_files(UI_SOURCES, {".ui"}):
        text = path.read_text(encoding="utf-8")
        rel = str(path.relative_to(ROOT))
        pattern = r'<(?:property|attribute) name="(' + "|".join(TEXT_PROPERTIES) + r')"([^>]*)>([^<]*)<'
        for match in re.finditer(pattern, text):
            if "translatable" not in match.group(2) and is_words(match.group(3)):
                line = text.count("\n", 0, match.start()) + 1
                problems.append(f"{rel}:{line}: {match.group(1)} \"{match.group(3)}\" "
                                "lacks translatable=\"yes\"")

    for problem in problems:
        print(problem)
    print(f"{len(problems)} untranslatable string(s) or POTFILES slip(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
