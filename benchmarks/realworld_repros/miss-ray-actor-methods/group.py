import ray

from actor import TrainActor


class TrainGroup:
    def __init__(self, args, n):
        cls = ray.remote(num_gpus=1)(TrainActor)
        self.actors = [cls.remote() for _ in range(n)]
        ray.get([a.init.remote(args) for a in self.actors])

    def save_for_serving(self, path):
        ray.get([a.save_for_serving.remote(path) for a in self.actors])
