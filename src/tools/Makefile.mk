# src/tools/: command-line tools (eccl-probe).
