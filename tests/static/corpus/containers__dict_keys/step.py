import torch
import torch.nn.functional as F


def diffusion_step(models, optimizer, noise_scheduler, batch):
    with torch.no_grad():
        latents = models["vae"].encode(batch["pixels"]).latent_dist.sample() * 0.18215
        context = models["text_encoder"].forward(batch["input_ids"])[0]
    noise = torch.randn_like(latents)
    timesteps = torch.randint(0, 1000, (latents.shape[0],), device=latents.device)
    noisy = noise_scheduler.add_noise(latents, noise, timesteps)
    pred = models["dit"].forward(noisy, timesteps, context)  # expect: FSD201
    loss = F.mse_loss(pred.float(), noise.float())
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    return loss.detach()
