import argparse

import torch
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import get_model_state_dict, set_model_state_dict

from dist_utils import init_distributed
from model import Transformer
from parallel import apply_fsdp
from sampling import sample_sharded

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--checkpoint", required=True)
    parser.add_argument("--max-new-tokens", type=int, default=256)
    args = parser.parse_args()
    mesh = init_distributed()
    model = apply_fsdp(Transformer(32000, 2048, 24), mesh)
    state = {"model": get_model_state_dict(model)}
    dcp.load(state, checkpoint_id=args.checkpoint)
    set_model_state_dict(model, state["model"])
    prompt = torch.tensor([[1, 15043, 29892]], device="cuda")
    print(sample_sharded(model, prompt, args.max_new_tokens).tolist())
