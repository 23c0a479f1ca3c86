"""Launch a function on 2 CPU ranks (gloo, real ``fully_shard``) and collect each rank's result.

The parent process hosts the c10d TCPStore, as torchrun's agent does, so the store outlives a
rank that stops; ports come from the OS. Spawning is the expensive part of the suite, so tests
batch many scenarios into one launch. On a machine with GPUs the same launcher runs NCCL ranks,
each mapped to its ``LOCAL_RANK``'s GPU as a torchrun user's script does, or left unmapped to
reproduce the mistake that FSD106 reports.
"""

import importlib.util
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import traceback
from typing import Any, Dict, List

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

WORLD = 2


def _load(path: str) -> Any:
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _entry(rank: int, port: int, path: str, function: str, payload: Any, out_dir: str, env: Dict[str, str],
           world: int, backend: str, map_device: bool) -> None:
    os.environ.update(env)
    os.environ.update({"RANK": str(rank), "LOCAL_RANK": str(rank), "WORLD_SIZE": str(world)})
    result: Dict[str, Any]
    code = 0
    try:
        if map_device:
            torch.cuda.set_device(rank)
        store = dist.TCPStore("127.0.0.1", port, world, is_master=False)
        dist.init_process_group(backend, store=store, rank=rank, world_size=world)
        result = {"ok": True, "value": getattr(_load(path), function)(rank, payload)}
    except BaseException as exc:  # reported to the parent, which asserts on it
        result = {"ok": False, "type": type(exc).__name__, "code": getattr(exc, "code", None), "message": str(exc),
                  "traceback": traceback.format_exc()}
        code = 1
    with open(os.path.join(out_dir, f"rank{rank}.json"), "w") as handle:
        json.dump(result, handle)
    if code:
        os._exit(code)  # like an uncaught error: the peers see this rank's connections close
    dist.destroy_process_group()


def run_ranks(path: str, function: str, payload: Any = None, timeout_s: float = 120.0,
              env: Dict[str, str] = None, world: int = WORLD, backend: str = "gloo",
              map_device: bool = False) -> List[Dict[str, Any]]:
    """Run ``function(rank, payload)`` from file ``path`` on ``world`` ranks; per-rank result dicts.

    ``map_device`` calls ``torch.cuda.set_device(rank)`` before the process group is made.
    """
    env = {"FSDP_LINT_RUNTIME_TIMEOUT": "10", "OMP_NUM_THREADS": "1", **(env or {})}
    store = dist.TCPStore("127.0.0.1", 0, world + 1, is_master=True, wait_for_workers=False)
    context = mp.get_context("spawn")
    with tempfile.TemporaryDirectory() as out_dir:
        procs = [
            context.Process(target=_entry, args=(rank, store.port, path, function, payload, out_dir, env, world,
                                                 backend, map_device))
            for rank in range(world)
        ]
        for proc in procs:
            proc.start()
        deadline = time.monotonic() + timeout_s  # one bound for the job, not one per rank
        for proc in procs:
            proc.join(max(0.0, deadline - time.monotonic()))
        hung = [proc for proc in procs if proc.is_alive()]
        for proc in hung:
            proc.kill()
            proc.join()
        results = []
        for rank, proc in enumerate(procs):
            file = os.path.join(out_dir, f"rank{rank}.json")
            if os.path.exists(file):
                with open(file) as handle:
                    result = json.load(handle)
            else:
                result = {"ok": False, "type": "NoResult", "message": f"rank {rank} wrote nothing"}
            result["exitcode"] = proc.exitcode
            result["hung"] = proc in hung
            results.append(result)
    del store
    return results


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


SCRIPT = """
import sys, torch.distributed as dist
from tests.runtime.distributed import _load
dist.init_process_group("gloo")
getattr(_load(sys.argv[1]), sys.argv[2])(dist.get_rank(), sys.argv[3])
dist.destroy_process_group()
"""


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_script_ranks(path: str, function: str, payload: str, timeout_s: float = 120.0) -> List[Dict[str, Any]]:
    """Like a user's script under plain ``init_process_group``: rank 0 hosts the TCPStore.

    Each rank is a fresh ``python`` process that dies of an uncaught exception the ordinary way
    (traceback, atexit handlers, exit status 1). Returns each rank's exit status and output.
    """
    return run_command_ranks([sys.executable, "-c", SCRIPT, path, function, payload], timeout_s=timeout_s)


def run_command_ranks(command: List[str], timeout_s: float = 120.0, env: Dict[str, str] = None,
                      cwd: str = ROOT) -> List[Dict[str, Any]]:
    """``command`` once per rank, as torchrun would start it (RANK, WORLD_SIZE, MASTER_ADDR/PORT)."""
    env = {**os.environ, "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(_free_port()), "WORLD_SIZE": str(WORLD),
           "OMP_NUM_THREADS": "1", "FSDP_LINT_RUNTIME_TIMEOUT": "10", "PYTHONPATH": ROOT, **(env or {})}
    procs = [subprocess.Popen(command, cwd=cwd, env={**env, "RANK": str(rank), "LOCAL_RANK": str(rank)},
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for rank in range(WORLD)]
    results = []
    for proc in procs:
        try:
            output, _ = proc.communicate(timeout=timeout_s)
            results.append({"exitcode": proc.returncode, "output": output, "hung": False})
        except subprocess.TimeoutExpired:
            proc.kill()
            results.append({"exitcode": None, "output": proc.communicate()[0], "hung": True})
    return results
