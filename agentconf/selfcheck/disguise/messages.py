"""A failure message in other words: the same facts (the path, the count, the exit status, a
command's output, the arguments to fix) in reworded English, German or Korean, and the codes in
other spellings. Each message names a tool, an argument or an action as the reference's does, so
a model (and RESULT-06) still learns what to do next.

Templates spell the canonical tool and argument names; disguised_answers.py shows them as the
disguise names them before `{subject}` (the message's first quoted value) and `{number}` are
filled in.
"""

import re

from .dimensions import Wording

# code -> (reworded English, German, Korean)
HEADLINES: dict[str, tuple[str, str, str]] = {
    "NOT_FOUND": (
        "Could not find '{subject}': no such file or folder. Check the path with list_files.",
        'Datei oder Ordner "{subject}" nicht gefunden. Prüfen Sie den Pfad mit list_files.',
        "`{subject}` 파일이나 폴더를 찾을 수 없습니다. list_files로 경로를 확인하세요."),
    "IS_DIRECTORY": (
        "'{subject}' is a directory; name a file in it, or list it with list_files.",
        '"{subject}" ist ein Ordner, keine Datei. Zeigen Sie ihn mit list_files an.',
        "`{subject}`은(는) 폴더입니다. list_files로 내용을 확인하세요."),
    "NOT_A_DIRECTORY": (
        "'{subject}' is a file, so it has no entries; read it with read_file.",
        '"{subject}" ist eine Datei, kein Ordner. Lesen Sie sie mit read_file.',
        "`{subject}`은(는) 폴더가 아니라 파일입니다. read_file로 읽으세요."),
    "OUTSIDE_ROOT": (
        "Access denied: '{subject}' lies outside the allowed directory. Use a path inside it.",
        'Zugriff verweigert: "{subject}" liegt außerhalb des Arbeitsbereichs (siehe list_files).',
        "접근 거부: `{subject}`은(는) 작업 공간 밖에 있습니다. list_files로 경로를 확인하세요."),
    "PERMISSION_DENIED": (
        "Permission denied: '{subject}' is not allowed here. Ask the user, or use another tool.",
        'Keine Berechtigung: "{subject}" ist hier nicht erlaubt (siehe tool_search).',
        "권한 없음: `{subject}`은(는) 여기서 허용되지 않습니다. "
        "tool_search로 다른 도구를 찾으세요."),
    "TEXT_NOT_FOUND": (
        "No match for old_text in '{subject}'. Read the file again and copy the text exactly.",
        'old_text kommt in "{subject}" nicht vor. Lesen Sie die Datei mit read_file erneut.',
        "`{subject}`에서 old_text를 찾지 못했습니다. read_file로 다시 읽으세요."),
    "TEXT_MULTIPLE_MATCHES": (
        "old_text matches {number} places in '{subject}'; add lines around it or set replace_all.",
        'old_text kommt {number}-mal in "{subject}" vor; erweitern Sie ihn oder nutzen Sie '
        "replace_all.",
        "`{subject}`에 old_text가 {number}번 나옵니다. 주변 줄을 더하거나 replace_all을 쓰세요."),
    "NOT_READ": (
        "'{subject}' must be read before it is changed: call read_file on it first.",
        '"{subject}" wurde noch nicht gelesen. Rufen Sie zuerst read_file auf.',
        "`{subject}`을(를) 아직 읽지 않았습니다. 먼저 read_file을 호출하세요."),
    "STALE_READ": (
        "'{subject}' was modified since it was last read; read it again with read_file.",
        '"{subject}" wurde seit dem Lesen geändert. Lesen Sie die Datei mit read_file erneut.',
        "`{subject}`이(가) 읽은 뒤 바뀌었습니다. read_file로 다시 읽으세요."),
    "ALREADY_EXISTS": (
        "'{subject}' exists already; choose another destination (see list_files).",
        '"{subject}" existiert bereits. Wählen Sie ein anderes Ziel (siehe list_files).',
        "`{subject}`이(가) 이미 있습니다. 다른 대상을 고르세요 (list_files)."),
    "FILE_TOO_LARGE": (
        "'{subject}' is too large to read at once; read a window with start_line and end_line.",
        '"{subject}" ist zu groß. Lesen Sie einen Ausschnitt mit start_line und end_line.',
        "`{subject}`이(가) 너무 큽니다. start_line과 end_line으로 일부만 읽으세요."),
    "BINARY_FILE": (
        "'{subject}' looks binary and cannot be shown as text; inspect it with bash.",
        '"{subject}" ist eine Binärdatei, kein Text. Untersuchen Sie sie mit bash.',
        "`{subject}`은(는) 이진 파일입니다. bash로 살펴보세요."),
    "TIMEOUT": (
        "Timed out after {number} ms; the command and its children were killed. Give a "
        "larger timeout_ms.",
        "Zeitüberschreitung nach {number} ms: der Befehl wurde samt Kindprozessen beendet. "
        "Geben Sie ein größeres timeout_ms an.",
        "{number} ms 후 시간 초과: 명령과 하위 프로세스를 모두 종료했습니다. "
        "timeout_ms를 늘리세요."),
    "NONZERO_EXIT": (
        "Process exited with status {number}.",
        "Befehl mit Exit-Code {number} beendet.",
        "명령이 종료 코드 {number}(으)로 실패했습니다."),
    "INVALID_ARGS": (
        "Bad arguments for {subject}; correct them and call again:",
        "Ungültige Argumente für {subject}; korrigieren Sie sie und rufen Sie erneut auf:",
        "{subject}의 인수가 잘못되었습니다. 고쳐서 다시 호출하세요:"),
    "TOOL_NOT_FOUND": (
        "Unknown tool '{subject}'. Use tool_search, or a tool from the list.",
        'Unbekanntes Werkzeug "{subject}". Verwenden Sie tool_search.',
        "알 수 없는 도구 `{subject}`. tool_search를 사용하세요."),
    "CANCELLED": (
        "The call was cancelled before it finished; call it again if still needed.",
        "Der Aufruf wurde vor dem Ende abgebrochen. Rufen Sie {subject} bei Bedarf erneut auf.",
        "호출이 끝나기 전에 취소되었습니다. 필요하면 {subject}을(를) 다시 호출하세요."),
    "IO_ERROR": (
        "I/O error on '{subject}'; check the path with list_files and try again.",
        'E/A-Fehler bei "{subject}". Prüfen Sie den Pfad mit list_files.',
        "`{subject}` 입출력 오류. list_files로 경로를 확인하세요."),
    "EXECUTION_ERROR": (
        "Internal error in {subject}; retry the call, or report it.",
        "Interner Fehler in {subject}. Rufen Sie es erneut auf.",
        "{subject} 내부 오류가 발생했습니다. 다시 호출하세요."),
}
# The lines after the first that carry facts, kept as they are: a command's output, the list of
# arguments to fix.
KEEPS_DETAIL = ("NONZERO_EXIT", "TIMEOUT", "INVALID_ARGS")
# The codes as a system library might spell them.
ERRNO: dict[str, str] = {
    "TOOL_NOT_FOUND": "ENOSYS", "INVALID_ARGS": "EINVAL", "PERMISSION_DENIED": "EPERM",
    "OUTSIDE_ROOT": "EACCES", "NOT_FOUND": "ENOENT", "IS_DIRECTORY": "EISDIR",
    "NOT_A_DIRECTORY": "ENOTDIR", "FILE_TOO_LARGE": "EFBIG", "BINARY_FILE": "EILSEQ",
    "TEXT_NOT_FOUND": "ENOMATCH", "TEXT_MULTIPLE_MATCHES": "EAMBIGUOUS", "NOT_READ": "ENOTREAD",
    "STALE_READ": "ESTALE", "ALREADY_EXISTS": "EEXIST", "TIMEOUT": "ETIMEDOUT",
    "NONZERO_EXIT": "ECHILD", "CANCELLED": "ECANCELED", "IO_ERROR": "EIO",
    "EXECUTION_ERROR": "EFAULT",
}
_WORDINGS: tuple[Wording, ...] = ("reworded", "german", "korean")
_QUOTED = re.compile(r"`([^`\n]+)`")
_NUMBER = re.compile(r"\d+")


def template(code: str, wording: Wording) -> str:
    return HEADLINES[code][_WORDINGS.index(wording)]


def fill(code: str, headline: str, message: str, tool: str) -> str:
    """`headline` (a template, names already shown) filled from the reference's `message`, with
    the detail lines kept where they carry facts; `tool` stands in for a missing subject."""
    first, _, rest = message.partition("\n")
    quoted = _QUOTED.search(first)
    number = _NUMBER.search(first)
    subject = tool if code in ("INVALID_ARGS", "CANCELLED", "EXECUTION_ERROR") or quoted is None \
        else quoted.group(1)
    text = headline.format(subject=subject, number=number.group(0) if number else "?")
    if code == "INVALID_ARGS" and not rest:  # one problem, said on the first line
        rest = f"- {first}"
    return f"{text}\n{rest}" if rest and code in KEEPS_DETAIL else text


def spelled(code: str, spelling: str | None) -> str:
    if spelling == "lower":
        return code.lower()
    if spelling == "errno":
        return ERRNO.get(code, code)
    return code
