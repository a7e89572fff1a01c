"""Broken: an ambiguous old_text edits the first match instead of failing (kills EDIT-03)."""

from typing import Any

from _wrap import OneToolBroken, ok


class FirstMatchEdit(OneToolBroken):
    async def broken_call(self, name: str, arguments: Any) -> dict[str, Any] | None:
        if name != "edit_file" or not isinstance(arguments, dict) or arguments.get("replace_all"):
            return None
        target = self.root / str(arguments.get("path", ""))
        old, new = arguments.get("old_text"), arguments.get("new_text")
        if not (isinstance(old, str) and old and isinstance(new, str) and target.is_file()):
            return None
        text = target.read_text("utf-8")
        if text.count(old) < 2:
            return None
        target.write_text(text.replace(old, new, 1), "utf-8")
        return ok(f"Replaced the first of {text.count(old)} matches in {arguments['path']}.")


def create(workspace: Any) -> FirstMatchEdit:
    return FirstMatchEdit(workspace)
