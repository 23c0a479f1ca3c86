def eval_step(model, batch):
    out = model.forward(batch)  # expect: FSD201
    return out.mean()
    out = model.forward(batch)  # an earlier version, left behind the return
    return out.sum()
