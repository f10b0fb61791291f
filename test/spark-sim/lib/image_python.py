"""The `python3` of a simulated container image.

Runs the given code with the host's real interpreter (started with -S -E -s, so none of the
host's own site-packages are visible), and with an import hook that serves exactly the
modules the image's python-modules.txt declares. Any other import of those packages fails the
way it would in the image: `ModuleNotFoundError: No module named 'sglang.srt.models.qwen3_5_moe'`.

usage: image_python.py MODULES_FILE -c CODE [ARG...]
       image_python.py MODULES_FILE -m MODULE [ARG...]   (only `-m pip`/`vllm`/`ray` go elsewhere)

python-modules.txt holds sections like
    [torch.version]
    cuda = '13.0'
one per module; each line is `name = python expression`. Parent packages are implied.
The expressions may use the helpers below (dummy_class, registry, from_module, log_info).
"""

import importlib
import importlib.abc
import importlib.machinery
import sys
import traceback
import types


def dummy_class(name):
    """A class that exists, so `from x import Name` works; nothing more."""
    return type(name, (), {"__module__": "simulated"})


class _Registry:
    """Just enough of vLLM's ModelRegistry for probes that list supported architectures."""

    def __init__(self, architectures):
        self.models = {arch: dummy_class(arch) for arch in architectures}

    def get_supported_archs(self):
        return list(self.models)

    def is_text_generation_model(self, architecture, *_args):
        return architecture in self.models


def registry(*architectures):
    return _Registry(architectures)


def from_module(module_name, attribute):
    """Re-export, as `from .registry import ModelRegistry` does in a real package."""
    return getattr(importlib.import_module(module_name), attribute)


def log_info(source, message):
    """A line like the ones vLLM logs on import (to stderr), stamped with the current time."""
    import time

    sys.stderr.write(f"INFO {time.strftime('%m-%d %H:%M:%S')} [{source}] {message}\n")


HELPERS = {"dummy_class": dummy_class, "registry": registry, "from_module": from_module, "log_info": log_info}


def read_declarations(path):
    """{module name: [(attribute, expression)]}, parents added with no attributes."""
    declared = {}
    current = None
    with open(path, encoding="utf-8") as source:
        for raw in source:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("[") and line.endswith("]"):
                current = line[1:-1].strip()
                declared.setdefault(current, [])
                continue
            if current is None or "=" not in line:
                raise SystemExit(f"spark-sim: {path}: cannot read line: {raw.rstrip()}")
            name, expression = line.split("=", 1)
            declared[current].append((name.strip(), expression.strip()))
    for name in list(declared):
        parts = name.split(".")
        for end in range(1, len(parts)):
            declared.setdefault(".".join(parts[:end]), [])
    return declared


class ImageModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, declared):
        self.declared = declared
        self.top_level = {name.split(".")[0] for name in declared}

    def _children(self, name):
        prefix = name + "."
        return [child for child in self.declared if child.startswith(prefix) and "." not in child[len(prefix):]]

    def find_spec(self, fullname, path=None, target=None):
        if fullname in self.declared:
            is_package = bool(self._children(fullname))
            return importlib.machinery.ModuleSpec(fullname, self, is_package=is_package)
        if fullname.split(".")[0] in self.top_level:
            # Part of a simulated package but not in this image: nothing else may supply it.
            raise ModuleNotFoundError(f"No module named '{fullname}'", name=fullname)
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        if module.__spec__.submodule_search_locations is not None:
            module.__path__ = []
        for name, expression in self.declared[module.__name__]:
            setattr(module, name, eval(expression, dict(HELPERS)))
        # Real packages import their submodules (`import torch` gives `torch.version`).
        for child in self._children(module.__name__):
            __import__(child)


def print_user_traceback(error):
    """Like Python's own report, without this runner's frames."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename == "<string>"]
    lines = ["Traceback (most recent call last):\n"] if frames else []
    lines += traceback.format_list(frames)
    lines += traceback.format_exception_only(type(error), error)
    sys.stderr.write("".join(lines))


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "-c":
        sys.stderr.write("spark-sim: this image's python3 only runs `python3 -c CODE` probes\n")
        return 2
    modules_file, code = sys.argv[1], sys.argv[3]
    sys.path[:] = [entry for entry in sys.path if entry and not entry.endswith("spark-sim/lib")]
    sys.meta_path.insert(0, ImageModules(read_declarations(modules_file)))
    sys.argv = ["-c", *sys.argv[4:]]
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    try:
        exec(compile(code, "<string>", "exec"), namespace)
    except SystemExit:
        raise
    except BaseException as error:  # noqa: BLE001 - report it as the interpreter would
        sys.stdout.flush()
        print_user_traceback(error)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
