"""The testkit is a typed, documented public API, and nothing else of it is public."""

import doctest
import importlib
import inspect
import pkgutil
import tempfile
from pathlib import Path
from types import ModuleType

import pytest

import agentconf
import agentconf.testkit as testkit
from agentconf.contract import Limits, Workspace


def test_every_exported_name_exists_and_says_what_it_is() -> None:
    for name in testkit.__all__:
        value = getattr(testkit, name)
        if inspect.isfunction(value) or inspect.isclass(value):
            assert inspect.getdoc(value), f"{name} has no docstring"


def _modules() -> list[ModuleType]:
    """The front module and its private modules (_sandbox, _files), where the builders live."""
    return [testkit, *(importlib.import_module(f"{testkit.__name__}.{info.name}")
                       for info in pkgutil.iter_modules(testkit.__path__))]


def test_every_public_definition_of_the_package_is_exported() -> None:
    modules = _modules()
    defined = {
        name for module in modules for name, value in vars(module).items()
        if not name.startswith("_") and getattr(value, "__module__", None) == module.__name__
        and not name.startswith("pytest_")  # hooks are pytest's to call, not the author's
    }
    assert len(modules) > 1 and defined - set(testkit.__all__) == set()


def test_the_fixtures_are_exported_as_pytest_fixtures() -> None:
    for name in ("agentconf_sandbox", "agentconf_link_farm", "agentconf_eol_corpus",
                 "agentconf_binary_files", "agentconf_large_file", "agentconf_fake_home"):
        assert name in testkit.__all__
        assert type(getattr(testkit, name)).__name__ == "FixtureFunctionDefinition", name


def test_the_package_declares_itself_typed() -> None:
    assert (Path(agentconf.__file__).parent / "py.typed").is_file()


def test_the_docstring_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the examples' sandboxes land here
    # The examples read as an author writes them: with the public names of agentconf.testkit.
    public = {name: getattr(testkit, name) for name in testkit.__all__}
    results = [doctest.testmod(module, extraglobs=public, optionflags=doctest.ELLIPSIS)
               for module in _modules()]
    failures, tried = (sum(counts) for counts in zip(*results, strict=True))
    assert tried >= 8 and failures == 0
    assert list(tmp_path.iterdir()) == []


def test_the_package_exports_the_workspace_a_factory_receives() -> None:
    assert set(agentconf.__all__) == {"Limits", "Workspace", "__version__"}
    assert agentconf.Workspace is Workspace and agentconf.Limits is Limits
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        agentconf.nothing  # noqa: B018


def test_the_former_module_name_is_an_alias_of_the_testkit() -> None:
    import agentconf.fixtures as former

    assert former.__all__ == testkit.__all__
    assert all(getattr(former, name) is getattr(testkit, name) for name in testkit.__all__)
