from parallelisms.parallelize_llama import parallelize_llama

models_parallelize_fns = {
    "llama3": parallelize_llama,
}
