# packaging/spack/package.py - Spack recipe for eccl (see README.md here and doc/install.md).
#
# Written for Spack 0.23 and 1.x; linted (py_compile, a mocked configure_args run) but not yet run
# by a real Spack.  Copy it into a package repository of your own as packages/eccl/package.py.
#
# PLACEHOLDERS, to be replaced before the recipe is published: homepage, url and git below name
# the issue tracker's host of configure.ac, not a confirmed release location, and there is no
# checksummed release version yet (only @main, built from git).

import os

from spack.package import *  # noqa: F401,F403

try:  # Spack >= 1.0: the build systems live in the builtin package repository
    from spack_repo.builtin.build_systems.autotools import AutotoolsPackage
    from spack_repo.builtin.build_systems.cuda import CudaPackage
except ImportError:  # Spack 0.x: spack.package exports them
    pass


class Eccl(AutotoolsPackage, CudaPackage):
    """eccl, the Error-bounded Compressed Collectives Library: MPI broadcasts and reductions
    (and BLACS/ScaLAPACK panel broadcasts) that send data through a lossy compressor whose
    error bound the caller chooses and the library guarantees on every element.  C11 core,
    CUDA kernels, a Fortran 2008 module."""

    # PLACEHOLDER URLs (see the top of this file)
    homepage = "https://github.com/eccl/eccl"
    url = "https://github.com/eccl/eccl/releases/download/v0.1.0/eccl-0.1.0.tar.gz"
    git = "https://github.com/eccl/eccl.git"

    license("BSD-3-Clause")

    version("main", branch="main")
    # PLACEHOLDER: a release tarball (`make dist`), once published:
    # version("0.1.0", sha256="<sha256 of eccl-0.1.0.tar.gz>")

    variant("fortran", default=True, description="Build the Fortran module (use eccl)")
    variant(
        "scalapack",
        default=True,
        description="Build the BLACS/ScaLAPACK layer, libeccl_blacs and the SUMMA/Cannon examples",
    )
    variant("openmp", default=True, description="OpenMP threads in the CPU codec")
    variant("nccl", default=False, description="NCCL transport between GPUs (needs +cuda)")
    variant("netcdf", default=False, description="netCDF input for eccl-probe")
    # +cuda and cuda_arch come from CudaPackage; without cuda_arch, configure's default is
    # "80 90" (A100, H100/H200)

    depends_on("c", type="build")
    depends_on("fortran", type="build", when="+fortran")

    depends_on("mpi")
    depends_on("scalapack", when="+scalapack")
    depends_on("blas", when="+scalapack")
    depends_on("lapack", when="+scalapack")
    depends_on("nccl", when="+nccl")
    depends_on("netcdf-c", when="+netcdf")
    for _arch in CudaPackage.cuda_arch_values:
        depends_on(f"nccl cuda_arch={_arch}", when=f"+nccl cuda_arch={_arch}")

    conflicts("+nccl", when="~cuda", msg="NCCL is eccl's transport between GPUs: add +cuda")

    # A git checkout has no configure script: Spack runs autoreconf.  (configure.ac uses no
    # pkg-config macros, so pkgconfig is not needed to build; eccl.pc is written by configure.)
    with when("@main"):
        depends_on("autoconf", type="build")
        depends_on("automake", type="build")
        depends_on("libtool", type="build")
        depends_on("m4", type="build")

    def configure_args(self):
        spec = self.spec
        # eccl's configure wants the MPI compiler wrappers (it checks mpi.h, MPI_Init and the
        # Fortran `use mpi`, and tells MPICH from Open MPI by mpi.h)
        args = [f"CC={spec['mpi'].mpicc}"]
        if spec.satisfies("+fortran"):
            args.append(f"FC={spec['mpi'].mpifc}")
        # the launcher of `make check` (spack install --test=root)
        for launcher in ("mpiexec", "mpirun"):
            path = join_path(spec["mpi"].prefix.bin, launcher)
            if os.path.exists(path):
                args.append(f"MPIEXEC={path}")
                break

        args.extend(self.enable_or_disable("fortran"))
        args.extend(self.enable_or_disable("openmp"))
        args.extend(self.with_or_without("netcdf"))

        if spec.satisfies("+scalapack"):
            # ScaLAPACK, BLACS, LAPACK and BLAS, replacing configure's search; configure checks
            # that this ScaLAPACK was built for the same MPI as CC
            libs = spec["scalapack"].libs + spec["lapack"].libs + spec["blas"].libs
            args.extend(["--with-scalapack", f"SCALAPACK_LIBS={libs.ld_flags}"])
        else:
            args.append("--without-scalapack")

        if spec.satisfies("+cuda"):
            args.append(f"--with-cuda={spec['cuda'].prefix}")
            archs = [a for a in spec.variants["cuda_arch"].value if a != "none"]
            if archs:
                args.append(f"--with-cuda-arch={' '.join(archs)}")
        else:
            args.append("--without-cuda")

        if spec.satisfies("+nccl"):
            args.append(f"--with-nccl={spec['nccl'].prefix}")
        else:
            args.append("--without-nccl")
        return args
