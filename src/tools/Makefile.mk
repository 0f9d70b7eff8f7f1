# src/tools/: command-line tools (eccl-probe).
bin_PROGRAMS += eccl-probe
eccl_probe_SOURCES = src/tools/probe.c src/tools/probe_args.c src/tools/probe_input.c \
	src/tools/probe_check.c src/tools/probe_report.c src/tools/probe.h
eccl_probe_LDADD = libeccl.la $(NETCDF_LIBS) -lm

# eccl-info: build options, machine, algorithm table, environment variables, cost model.
bin_PROGRAMS += eccl-info
eccl_info_SOURCES = src/tools/info.c src/tools/info_model.c src/tools/info.h
eccl_info_LDADD = libeccl.la -lm
