from fsdp_lint.frontends.cli import run

run()
