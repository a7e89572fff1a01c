"""Shapes that answer in JSON: the outcome said inside a success, or the text in a record."""

import json
from typing import Any

from draft_toys.plain import Answer, Handler, Toy

# The code JsonStatus's JSON gives each kind of failure.
STATUS = {"missing": "FileNotFoundError", "outside": "PermissionError",
          "folder": "IsADirectoryError", "args": "ValidationError", "absent": "TextNotFound",
          "twice": "AmbiguousMatch", "under": "NotADirectory", "loop": "OSError",
          "binary": "UnicodeDecodeError"}


class JsonRead(Toy):
    """Read answers {"path", "content", "size"} as JSON text (filesystem-mcp 1.0.2;
    fast-filesystem-mcp's {"content", "mode", ...})."""

    def read_answer(self, path: str, text: str) -> Answer:
        return {"success": True, "data": json.dumps(
            {"path": path, "content": text, "size": len(text)}, indent=2)}


class JsonStatus(Toy):
    """Every answer is a success whose JSON says whether it worked, as mcp-code-editor 0.1.24
    answers: {"success": true, "result": <text>}, or {"success": false, "error": "<its code>",
    "message": <text>} ("FileNotFoundError", ...)."""

    codes = STATUS

    def answer(self, name: str, handler: Handler, args: dict[str, Any]) -> Answer:
        # The tool's own answer, not the shapes after this one: this JSON is the last word.
        answer = handler(args)
        if answer["success"]:
            said = {"success": True, "result": answer["data"]}
        else:
            said = {"success": False, "error": self.codes.get(answer.get("kind"), "Error"),
                    "message": answer["data"]}
        return {"success": True, "data": json.dumps(said)}


class WrappedStatus(Toy):
    """Every answer a success whose one-line JSON wraps its status, the text or the refusal's
    words after a key that says nothing (fsext-mcp-server 0.1.3's
    `{"res": {"success": false, "info": "..."}}`)."""

    def answer(self, name: str, handler: Handler, args: dict[str, Any]) -> Answer:
        answer = handler(args)
        return {"success": True, "data": json.dumps(
            {"res": {"success": answer["success"], "info": answer["data"]}})}


class JsonItems(Toy):
    """Every Read, Write and Edit answers success: a read or a write a JSON list with one item
    per file, [{"path", "content"}] (a write's "result"), or [{"path", "error"}] when it failed;
    an edit {"message", "results": [{"file", "modified"}]}, the item with an "error" when it
    failed (@shtse8/filesystem-mcp 0.5.8's read_content, write_content and replace_content)."""

    def answer(self, name: str, handler: Handler, args: dict[str, Any]) -> Answer:
        if name not in ("Read", "Write", "Edit"):
            return super().answer(name, handler, args)
        answer, path = handler(args), args.get("file_path", "")
        said = "error" if not answer["success"] else "content" if name == "Read" else "result"
        if name == "Edit":  # its own shape: the outcome of each file under results
            item = {"file": path, "modified": answer["success"]}
            item.update({} if answer["success"] else {"error": answer["data"]})
            return {"success": True, "data": json.dumps(
                {"message": "Edit operations completed.", "results": [item]}, indent=2)}
        return {"success": True, "data": json.dumps([{"path": path, said: answer["data"]}],
                                                    indent=2)}


class Report(Toy):
    """Every answer is a success laid out as a report, framed by banners: a title, a status
    line, the call's own fields, then the outcome (a PyPI file server, mcp-filesystem 0.3.0:
    `成功: 否` and its `错误: ...` lines below the path and mode it was given)."""

    BANNER = "=" * 60

    def answer(self, name: str, handler: Handler, args: dict[str, Any]) -> Answer:
        answer = handler(args)
        fields = [f"{key}: {value}" for key, value in args.items()
                  if isinstance(value, str) and "\n" not in value and len(value) < 80]
        outcome = (f"内容:\n{answer['data']}" if answer["success"] else
                   f"错误: {answer['data']}")
        said = [self.BANNER, f"{name.upper()} RESULT", self.BANNER,
                f"成功: {'是' if answer['success'] else '否'}", *fields, outcome, self.BANNER]
        return {"success": True, "data": "\n".join(said)}
