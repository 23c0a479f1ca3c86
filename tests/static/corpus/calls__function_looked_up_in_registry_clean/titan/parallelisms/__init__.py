from titan.parallelisms.parallelize_llama import parallelize_llama
from titan.parallelisms.parallelize_small import parallelize_small

models_parallelize_fns = {
    "llama3": parallelize_llama,
    "llama3_debug": parallelize_small,
}
