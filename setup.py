"""Only here to put apb-gymnasium.pth into site-packages (see apb_gymnasium_hook.py); the rest is pyproject.toml."""

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


setup(cmdclass={"build_py": BuildPyWithStartupHook})
