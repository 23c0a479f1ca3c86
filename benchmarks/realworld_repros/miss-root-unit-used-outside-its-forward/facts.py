"""Which uses of a sharded unit's parts outside its forward fail (torch 2.13 CPU, 2 gloo ranks)."""
import copy, os, sys, traceback
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.fsdp import fully_shard, register_fsdp_forward_method
from torch.distributed.tensor import DTensor

D = 8

class Block(nn.Module):
    def __init__(self):
        super().__init__(); self.mlp = nn.Linear(D, D)
    def forward(self, x):
        return x + self.mlp(x)

class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.patch_embed = nn.Linear(D, D)
        self.pos_embed = nn.Parameter(torch.randn(1, 4, D))
        self.blocks = nn.Sequential(Block(), Block())
        self.norm = nn.LayerNorm(D)
    def forward_features(self, x):
        return self.norm(self.blocks(self.patch_embed(x) + self.pos_embed))
    def run_blocks(self, h):          # touches only its sub-units
        return self.blocks(h)
    def forward(self, x):
        return self.forward_features(x)

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder(); self.lm_head = nn.Linear(D, D); self.mask = nn.Parameter(torch.zeros(1, 1, D))
        self.mode = "plain"
    def forward(self, x):
        enc = self.encoder
        if self.mode == "parts":
            return enc.norm(enc.blocks(enc.patch_embed(x)))
        if self.mode == "param":
            return enc(x) + enc.pos_embed
        if self.mode == "method":
            return enc.forward_features(x)
        if self.mode == "run_blocks":
            return enc.run_blocks(x)
        if self.mode == "unit_child":
            return enc.blocks[0](x)
        return self.lm_head(enc(x) + self.mask)

def build(enc_raf=True, register=False):
    torch.manual_seed(0)
    m = Model()
    ref = copy.deepcopy(m)
    for b in m.encoder.blocks:
        fully_shard(b)
    fully_shard(m.encoder, reshard_after_forward=enc_raf)
    if register:
        register_fsdp_forward_method(m.encoder, "forward_features")
    fully_shard(m)
    return m, ref

def grads_match(m, ref, x, run, run_ref):
    run(m, x).sum().backward()
    run_ref(ref, x).sum().backward()
    bad = []
    for (n, p), (_, q) in zip(m.named_parameters(), ref.named_parameters()):
        g = p.grad
        if g is None and q.grad is None:  # not used by the run
            continue
        if g is None:
            bad.append(n + ":nograd"); continue
        g = g.full_tensor() if isinstance(g, DTensor) else g
        # the reference runs on one rank the same input: FSDP averages over 2 equal ranks
        if not torch.allclose(g, q.grad, atol=1e-5):
            bad.append(n)
    return "grads OK" if not bad else "grads WRONG " + ",".join(bad)

def case(name, fn):
    try:
        r = fn()
        out = "OK" + (f" ({r})" if r else "")
    except Exception as e:
        out = f"FAIL {type(e).__name__}: {str(e).splitlines()[0][:110]}"
    if dist.get_rank() == 0:
        print(f"{name:70s} {out}", flush=True)

def worker(rank):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="29539")
    dist.init_process_group("gloo", rank=rank, world_size=2)
    torch.manual_seed(1); x = torch.randn(2, 4, D)  # same on both ranks

    def c1():
        m, _ = build(); return m.encoder.forward_features(x).sum().item() and None
    case("1 encoder.forward_features(x) from outside, fresh", c1)
    def c1b():
        m, _ = build(); m(x); return m.encoder.forward_features(x).sum().item() and None
    case("1b encoder.forward_features(x) after model(x) (train)", c1b)
    def c2():
        m, _ = build(); m.mode = "parts"; m(x)
    case("2 enc.patch_embed/blocks/norm in root forward", c2)
    def c3():
        m, _ = build(); m.mode = "param"; m(x)
    case("3 enc(x) + enc.pos_embed in root forward", c3)
    def c3b():
        m, _ = build(); m.mode = "method"; m(x)
    case("3b enc.forward_features(x) in root forward", c3b)
    def c4():
        m, ref = build(); m.mode = "run_blocks"
        ref.mode = "run_blocks"
        return grads_match(m, ref, x, lambda mm, xx: mm(xx), lambda mm, xx: mm(xx))
    case("4 enc.run_blocks(x) (method touching only sub-units) in root forward", c4)
    def c4b():
        m, _ = build(); m.mode = "unit_child"; m(x)
    case("4b enc.blocks[0](x) (a unit of its own) in root forward", c4b)
    def c5():
        m, _ = build(); return m.lm_head(x).sum().item() and None
    case("5 model.lm_head(x) (root's own part) before any forward", c5)
    def c6():
        m, ref = build()
        def run(mm, xx):
            h = mm(xx); return mm.lm_head(h)
        return grads_match(m, ref, x, run, run)
    case("6 model.lm_head(model(x)) after root forward, before backward", c6)
    case("6b model.mask * 2 (root param, sharded: DTensor with a constant)", lambda: (lambda m: (m[0].mask * 2).sum().item() and None)(build()))
    def c7():
        m, _ = build(); m(x).sum().backward(); return m.lm_head(x).sum().item() and None
    case("7 model.lm_head(x) after backward", c7)
    def c7b():
        m, _ = build(); m.eval()
        with torch.no_grad():
            m(x); return m.lm_head(x).sum().item() and None
    case("7b model.lm_head(x) after model(x) under no_grad/eval", c7b)
    def c8():
        m, _ = build(enc_raf=False); m(x); return m.encoder.patch_embed(x).sum().item() and None
    case("8 enc raf=False: enc.patch_embed(x) after model(x)", c8)
    def c8b():
        m, _ = build(enc_raf=False); return m.encoder.patch_embed(x).sum().item() and None
    case("8b enc raf=False: enc.patch_embed(x) fresh", c8b)
    def c8c():
        m, _ = build(enc_raf=False); m.mode = "parts"; m(x)
    case("8c enc raf=False: parts in root forward (first forward)", c8c)
    def c9():
        m, _ = build(); m.eval()
        with torch.no_grad():
            return m.encoder.forward_features(x).sum().item() and None
    case("9 no_grad+eval: encoder.forward_features(x)", c9)
    def c9b():
        m, _ = build(); m.eval()
        with torch.no_grad():
            m(x); return m.encoder.forward_features(x).sum().item() and None
    case("9b no_grad+eval: after model(x), encoder.forward_features(x)", c9b)
    def c10():
        m, _ = build(); m.unshard(); return m.encoder.forward_features(x).sum().item() and None
    case("10 model.unshard() then encoder.forward_features(x)", c10)
    def c10b():
        m, ref = build(); m.encoder.unshard()
        out = m.encoder.forward_features(x).sum(); out.backward()
        m.encoder.reshard()
        g = m.encoder.patch_embed.weight.grad
        return f"after reshard: patch_embed.weight is {type(m.encoder.patch_embed.weight).__name__}, grad {None if g is None else type(g).__name__}"
    case("10b encoder.unshard() then encoder.forward_features(x) + backward", c10b)
    def c10c():
        m, _ = build(); m.unshard(); return m.lm_head(x).sum().item() and None
    case("10c model.unshard() then model.lm_head(x)", c10c)
    def c11():
        m, ref = build(register=True)
        return grads_match(m, ref, x, lambda mm, xx: mm.encoder.forward_features(xx), lambda mm, xx: mm.encoder.forward_features(xx))
    case("11 register_fsdp_forward_method(enc,'forward_features'): call + backward", c11)
    def c12():
        m, _ = build()
        e = m.encoder
        list(e.parameters()); e.state_dict(); list(e.named_modules()); e.train(); e.eval(); e.zero_grad()
        e.to(torch.float32); e.apply(lambda mod: None); list(e.named_parameters()); e.requires_grad_(True)
        [p.numel() for p in e.parameters()]; e.pos_embed.shape
        m(x)
        return None
    case("12 nn.Module API on the unit (parameters/state_dict/to/apply/...) then model(x)", c12)
    def c13():
        m, _ = build(); return m.encoder.norm(x).sum().item() and None
    case("13 enc.norm(x) from outside", c13)
    def c14():
        m, _ = build(); m(x); return (x + m.encoder.pos_embed).sum().item() and None
    case("14 x + enc.pos_embed after model(x)", c14)
    def c15():
        m, _ = build(); torch.nn.init.normal_(m.encoder.pos_embed); (m.encoder.pos_embed * 2).sum(); m(x)
    case("15 nn.init.normal_(enc.pos_embed), enc.pos_embed * 2, then model(x)", c15)
    dist.destroy_process_group()

if __name__ == "__main__":
    print("torch", torch.__version__)
    mp.spawn(worker, nprocs=2)
