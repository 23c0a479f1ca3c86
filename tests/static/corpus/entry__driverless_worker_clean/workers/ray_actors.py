import ray

from workers.policy_worker import PolicyWorkerImpl


@ray.remote(num_gpus=1)
class PolicyWorker(PolicyWorkerImpl):
    pass
