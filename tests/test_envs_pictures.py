"""render_mode="rgb_array" and the SVG of the same picture: every registered id draws pictures that change with
the state and keep their size, failed actions are marked, apb/PDDL-v0 draws any domain (the generic graph), and
Gymnasium's own video tools record apb envs."""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import apb.envs  # noqa: F401  (registers the ids)
from apb.domains.registry import BUNDLED
from apb.envs import env_id
from apb.envs.pictures import Painter, to_array, to_svg
from apb.envs.pictures.png import png_bytes
from apb.envs.pictures.scene import CHANGED, MISSING, Scene
from apb.errors import ApbError

IPC = Path(__file__).resolve().parents[1] / ".." / "shared" / "reference" / "ipc-classical"

def _colour_present(frame: np.ndarray, colour) -> bool:
    return bool((frame == np.array(colour, dtype=np.uint8)).all(axis=2).any())


@pytest.mark.parametrize("env_id", [i for i in gym.registry if i.startswith("apb/") and i != "apb/PDDL-v0"])
def test_every_id_draws_pictures_that_follow_the_state(env_id):
    env = gym.make(env_id, render_mode="rgb_array")
    _, info = env.reset(seed=0)
    first = env.render()
    assert first.dtype == np.uint8 and first.ndim == 3 and first.shape[2] == 3 and first.shape[0] > 50
    assert (first != first[0, 0]).any(axis=2).mean() > 0.02  # something is drawn
    _, _, _, _, info = env.step(info["admissible_actions"][0])
    second = env.render()
    assert second.shape == first.shape  # one size per problem: videos need it
    assert (second != first).any()
    assert _colour_present(second, CHANGED)  # what the action changed is outlined
    svg = env.unwrapped.picture_svg()
    assert svg.startswith("<svg") and svg.endswith("</svg>") and "<rect" in svg
    env.close()


def test_a_failed_action_marks_what_was_missing():
    env = gym.make("apb/Blocksworld-v0", render_mode="rgb_array")
    env.reset(seed=0, options={"problem": 1})
    before = env.render()
    _, _, _, _, info = env.step("(stack block_a block_c)")
    assert not info["action_valid"] and info["failure"]["unmet"]
    after = env.render()
    assert _colour_present(after, MISSING) and not _colour_present(before, MISSING)
    svg = env.unwrapped.picture_svg()
    assert "FAILED" in svg and "missing: (clear block_c)" in svg  # the caption names the missing facts
    _, _, _, _, info = env.step("I stack the red block")  # text that is no action: still a picture
    assert env.render().shape == before.shape


def test_blocksworld_picture_stacks_the_towers():
    env = gym.make("apb/Blocksworld-v0", render_mode="rgb_array")
    env.reset(seed=0, options={"problem": 1})
    painter = env.unwrapped.painter
    scene = painter.scene(env.unwrapped.state)
    tops = {s.objects[0]: s.y for s in scene.shapes if type(s).__name__ == "Rect" and s.objects}
    for fact in env.unwrapped.task.facts(env.unwrapped.state):
        if fact.startswith("(on "):
            upper, lower = fact[1:-1].split()[1:]
            assert tops[upper] < tops[lower]  # a block on another is drawn above it


def test_generic_picture_for_any_pddl_is_stable_across_steps():
    folder = IPC / "zenotravel"
    env = gym.make("apb/PDDL-v0", domain_file=folder / "domain.pddl", problem_file=folder / "p03.pddl",
                   render_mode="rgb_array")
    _, info = env.reset(seed=0)
    painter = env.unwrapped.painter
    assert type(painter.drawer).__name__ == "GraphDrawer"
    positions = {s.objects[0]: (s.cx, s.cy) for s in painter.scene(env.unwrapped.state).shapes
                 if type(s).__name__ == "Circle"}
    first = env.render()
    env.step(info["admissible_actions"][0])
    moved = {s.objects[0]: (s.cx, s.cy) for s in painter.scene(env.unwrapped.state).shapes
             if type(s).__name__ == "Circle"}
    assert moved == positions  # nodes stay put; the edges and labels change
    assert (env.render() != first).any()


def test_a_domain_with_a_bundled_domain_s_predicates_gets_its_drawer():
    folder = IPC / "blocks"
    env = gym.make("apb/PDDL-v0", domain_file=folder / "domain.pddl", problem_file=folder / "probBLOCKS-4-2.pddl",
                   render_mode="rgb_array")
    env.reset(seed=0)
    assert type(env.unwrapped.painter.drawer).__name__ == "BlocksDrawer"  # IPC's blocks has Blocksworld's predicates


def test_vector_env_renders_a_picture_per_sub_env():
    envs = gym.make_vec("apb/Gripper-v0", num_envs=3, render_mode="rgb_array")
    envs.reset(seed=0)
    frames = envs.render()
    assert len(frames) == 3 and all(f.dtype == np.uint8 and f.shape[2] == 3 for f in frames)
    with pytest.raises(ApbError, match="rgb_array"):
        gym.make_vec("apb/Gripper-v0", num_envs=2, render_mode="human")


def test_a_facts_index_vector_env_draws_the_state_it_stepped_to():
    """The batched path keeps states in arrays, not in the sub-envs: with pictures asked for, the sub-envs step
    (and draw) their own states."""
    envs = gym.make_vec("apb/Blocksworld-v0", num_envs=2, render_mode="rgb_array", obs_mode="facts",
                        action_mode="index")
    assert "render_mode" in repr(envs)
    _, info = envs.reset(seed=0)
    before = envs.render()
    action = np.array([int(np.flatnonzero(mask)[0]) for mask in info["action_mask"]])
    envs.step(action)
    after = envs.render()
    assert all(not np.array_equal(a, b) for a, b in zip(before, after))


def test_scene_draws_the_same_shapes_to_svg_and_pixels():
    scene = Scene(60, 40)
    scene.rect(5, 5, 20, 10, fill=(255, 0, 0))
    scene.circle(45, 20, 8, fill=(0, 0, 255))
    scene.line(0, 39, 59, 39, stroke=(0, 255, 0), width=2)
    scene.text(2, 25, "ab_1")
    frame = to_array(scene)
    assert tuple(frame[10, 15]) == (255, 0, 0) and tuple(frame[20, 45]) == (0, 0, 255)
    assert tuple(frame[39, 30]) == (0, 255, 0) and tuple(frame[0, 59]) == (255, 255, 255)
    assert (frame[25:33, 2:26] != 255).any()  # the text's pixels
    svg = to_svg(scene)
    assert "fill='#ff0000'" in svg and "<circle" in svg and ">ab_1</text>" in svg
    assert png_bytes(frame).startswith(b"\x89PNG")


def test_gymnasium_record_video_writes_an_mp4(tmp_path):
    pytest.importorskip("moviepy")  # the dev extra installs it (apb[video])
    from gymnasium.wrappers import RecordVideo

    env = RecordVideo(gym.make("apb/Ferry-v0", render_mode="rgb_array"), str(tmp_path / "videos"), name_prefix="ferry",
                      episode_trigger=lambda episode: True, disable_logger=True)
    _, info = env.reset(seed=0, options={"problem": 1})
    for action in info["gold_plan"]:
        env.step(action)
    env.close()
    videos = list((tmp_path / "videos").glob("ferry*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000


def test_frames_saved_without_any_video_library(tmp_path):
    from gymnasium.utils.save_video import capped_cubic_video_schedule

    env = gym.make("apb/Visitall-v0", render_mode="rgb_array")
    _, info = env.reset(seed=0, options={"problem": 1})
    frames = [env.render()]
    for action in info["gold_plan"]:
        env.step(action)
        frames.append(env.render())
    assert capped_cubic_video_schedule(0)
    for i, frame in enumerate(frames):
        (tmp_path / f"frame{i:03}.png").write_bytes(png_bytes(frame))
    assert len(list(tmp_path.glob("*.png"))) == len(info["gold_plan"]) + 1
    assert len({f.tobytes() for f in frames}) == len(frames)  # every step shows a new state


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_domains_have_their_own_drawer(name):
    env = gym.make(env_id(name), render_mode="rgb_array")
    env.reset(seed=0)
    painter = env.unwrapped.painter
    assert isinstance(painter, Painter) and type(painter.drawer).__name__ != "GraphDrawer"


@pytest.mark.parametrize("folder, domain, problem", [
    ("psr-small", "p03-domain.pddl", "p03-s7-n1-l3-f70.pddl"),      # derived predicates, ADL
    ("miconic-fulladl", "domain.pddl", "f1-2.pddl"),                # ADL: quantifiers, conditional effects
    ("elevators-opt08-strips", "domain.pddl", "p03.pddl"),          # action costs
    ("sokoban-opt08-strips", "domain.pddl", "p03.pddl")])
def test_apb_pddl_draws_ipc_domains_with_axioms_adl_and_costs(folder, domain, problem):
    path = IPC / folder
    env = gym.make("apb/PDDL-v0", domain_file=path / domain, problem_file=path / problem, render_mode="rgb_array")
    _, info = env.reset(seed=0)
    first = env.render()
    _, _, _, _, info = env.step(info["admissible_actions"][0])
    assert env.render().shape == first.shape and (env.render() != first).any()
    assert "<svg" in env.unwrapped.picture_svg()
