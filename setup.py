"""Only here to put apb-gymnasium.pth into site-packages (see apb_gymnasium_hook.py); the rest is pyproject.toml."""

import base64
import hashlib
import zipfile
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

PTH = "apb-gymnasium.pth"


class BuildPyWithStartupHook(build_py):
    """Copies the start-up hook's .pth file to the top of the wheel, next to the packages."""

    def run(self) -> None:
        super().run()
        self.copy_file(PTH, str(Path(self.build_lib) / PTH), preserve_mode=False)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        return [*super().get_outputs(include_bytecode), str(Path(self.build_lib) / PTH)]

    def get_output_mapping(self) -> dict[str, str]:
        mapping = dict(super().get_output_mapping())
        mapping[str(Path(self.build_lib) / PTH)] = PTH
        return mapping


def add_to_wheel(wheel_path: str, name: str, data: bytes) -> None:
    """Adds a top-level file to a built wheel and records it in the wheel's RECORD."""
    with zipfile.ZipFile(wheel_path) as zf:
        entries = {info.filename: zf.read(info.filename) for info in zf.infolist()}
    record_name = next(n for n in entries if n.endswith(".dist-info/RECORD"))
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    entries[name] = data
    entries[record_name] += f"{name},sha256={digest},{len(data)}\n".encode()
    with zipfile.ZipFile(wheel_path, "w", zipfile.ZIP_DEFLATED) as zf:
        for entry, content in entries.items():
            zf.writestr(entry, content)


cmdclass = {"build_py": BuildPyWithStartupHook}
try:  # editable installs (pip install -e) get the hook too
    from setuptools.command.editable_wheel import editable_wheel

    class EditableWheelWithStartupHook(editable_wheel):
        def _create_wheel_file(self, bdist_wheel):
            wheel_path = super()._create_wheel_file(bdist_wheel)
            add_to_wheel(str(wheel_path), PTH, Path(PTH).read_bytes())
            return wheel_path

    if hasattr(editable_wheel, "_create_wheel_file"):
        cmdclass["editable_wheel"] = EditableWheelWithStartupHook
except ImportError:  # setuptools without PEP 660 support
    pass

setup(cmdclass=cmdclass)
