"""Acceptance tests a test engineer writes against a running RAVON rig (docs/api.md): run with
    PYTHONPATH=tools/python HILSIM=build/release/tools/hilsim python3 -m pytest tools/python/examples
"""
import pytest

import hilsim

TICKS_PER_S = 4000  # RAVON's executive: 250 µs
Run = tuple[str, str]  # the `run` fixture (conftest.py): console url, operator token


def test_the_rig_says_what_it_is(rig: hilsim.Rig) -> None:
    info = rig.info()
    assert info["rig"] == "ravon"
    assert info["role"] == "operator"
    wheels = rig.channels("vehicle.wheel.*.speed")
    assert [c["name"] for c in wheels] == [f"vehicle.wheel.{w}.speed" for w in ("fl", "fr", "rl", "rr")]
    assert all(c["unit"] == "rad/s" for c in wheels)


def test_connect_finds_the_one_rig_running_here(run: Run, rig: hilsim.Rig) -> None:
    # token files left by runs that were killed do not count: only a console that answers
    with hilsim.connect() as found:
        assert found.info()["run_id"] == rig.info()["run_id"]
        assert found.info()["role"] == "operator"  # its token, readable by this user


def test_it_reaches_1_m_s_within_4_s(rig: hilsim.Rig) -> None:
    tick, speed = rig.wait_for("vehicle.body.forward_speed > 0.98", timeout=8)
    assert tick <= 4 * TICKS_PER_S, f"1 m/s at {tick / TICKS_PER_S:.2f} s"
    assert speed > 0.98


def test_a_forced_input_holds_until_released(rig: hilsim.Rig) -> None:
    applied = rig.write({"env.wind.speed": 4.5})
    tick, values = rig.read(["env.wind.speed"])
    assert tick >= applied and values["env.wind.speed"] == 4.5
    released = rig.release(["env.wind.speed"])
    assert released >= applied


def test_a_lost_ecu_message_brings_the_safe_state_within_3_cycles(rig: hilsim.Rig) -> None:
    applied = rig.inject_fault({"name": "lost speed refs", "stop": {"duration_s": 0.5},
                                "message": {"bus": "ecu", "name": "ECU_SpeedRef", "drop": {}}})
    tick, _ = rig.wait_for("can.ecu.ecu_speed_ref.timeout > 0.5", timeout=2)
    # 3 cycles of 20 ms after the last frame, which came at most a cycle before the fault;
    # the poll sees it within one poll more (100 ms in real time, 40 ticks stepped)
    assert 3 * 80 - 80 < tick - applied <= 3 * 80 + 400, tick - applied
    rig.marker("speed refs lost and noticed")


def test_a_viewer_cannot_steer(run: Run) -> None:
    url, _ = run
    with hilsim.connect(url) as viewer:
        assert viewer.info()["role"] == "viewer"
        with pytest.raises(hilsim.HilsimError, match="operator token"):
            viewer.write({"env.wind.speed": 1})


def test_mistakes_get_the_servers_words(rig: hilsim.Rig) -> None:
    with pytest.raises(hilsim.HilsimError, match="is an output"):
        rig.write({"vehicle.body.speed": 1})
    with pytest.raises(hilsim.HilsimError, match="did you mean HIL_WheelSpeeds"):
        rig.inject_fault({"name": "typo", "message": {"bus": "ecu", "name": "HIL_WheelSpeed",
                                                      "drop": {}}})
    with pytest.raises(hilsim.HilsimError, match="expected CHANNEL OP VALUE"):
        rig.wait_for("speed is high")
    with pytest.raises(hilsim.HilsimError, match=r"outside its range \[0, 1\]"):
        rig.write({"vehicle.brake.command": 2})


def test_a_capture_has_every_sample(rig: hilsim.Rig) -> None:
    data = rig.capture(["vehicle.body.forward_speed", "vehicle.wheel.*.speed"], seconds=0.5)
    ticks = data["tick"]
    assert len(ticks) == 2000  # every tick of half a second at 4 kHz
    assert all(b - a == 1 for a, b in zip(ticks, ticks[1:])), "no sample lost"
    assert len(data["vehicle.wheel.fl.speed"]) == len(ticks) and data.lost == 0


def test_a_capture_starts_on_its_trigger(rig: hilsim.Rig) -> None:
    # the braking at 10 s: the speed falls through 0.5 m/s; 0.1 s before it kept
    data = rig.capture(["vehicle.body.forward_speed"], start="vehicle.body.forward_speed < 0.5",
                       pre_trigger=0.1, seconds=0.2, timeout=30)
    speed = data["vehicle.body.forward_speed"]
    assert data.trigger_tick is not None, f"the trigger never fired ({data.reason})"
    at = data["tick"].index(data.trigger_tick)
    assert at == 400 and speed[at - 1] >= 0.5 > speed[at]


def test_168_channels_at_4_khz_for_10_s_lose_nothing(rig: hilsim.Rig) -> None:
    names = [c["name"] for c in rig.channels()][:168]
    data = rig.capture(names, seconds=10)
    ticks = data["tick"]
    assert len(ticks) == 40000 and ticks[-1] - ticks[0] == 39999
    assert data.lost == 0 and data.reason == "duration"
    assert all(len(data[n]) == 40000 for n in names)


def test_a_start_condition_is_an_edge_unless_asked_for_its_level(rig: hilsim.Rig) -> None:
    # at any time of the run the speed is >= -1 m/s: as an edge it never rises, and the client
    # says why instead of only timing out; as a level it starts at once
    with pytest.raises(hilsim.HilsimError, match=r"never rose .* starts while it holds"):
        rig.capture(["vehicle.body.forward_speed"], start="vehicle.body.forward_speed > -1",
                    seconds=0.01, timeout=0.3)
    data = rig.capture(["vehicle.body.forward_speed"],
                       start=("vehicle.body.forward_speed > -1", "level"), seconds=0.01)
    assert data.trigger_tick is not None and len(data["tick"]) == 40


def test_a_stepped_capture_leaves_the_rig_at_its_last_tick(rig: hilsim.Rig) -> None:
    # lock-step: a capture runs exactly its ticks, from now or from its start condition, so
    # the next call applies at the same tick on every machine, however late the console said
    # the capture had ended
    if "step" not in rig.info().get("capabilities", []):
        pytest.skip("a real-time run goes on by itself")
    data = rig.capture(["vehicle.body.forward_speed"], seconds=0.5)
    assert rig.read(["vehicle.body.forward_speed"])[0] == data["tick"][-1]
    frames = rig.read(["can.ecu.rx_frames"])[1]["can.ecu.rx_frames"]  # one more every 10 ms
    shot = rig.capture(["vehicle.body.forward_speed"],
                       start=f"can.ecu.rx_frames > {frames + 1:.0f}", seconds=0.1)
    assert shot.trigger_tick == shot["tick"][0] and len(shot["tick"]) == 400
    assert rig.read(["vehicle.body.forward_speed"])[0] == shot["tick"][-1]


def test_stop_ends_the_run_with_its_last_tick(rig: hilsim.Rig) -> None:
    tick, _ = rig.read(["vehicle.body.speed"])
    last = rig.stop()  # acknowledged before the rig goes away
    assert last >= tick
