#!/bin/bash
# Regenerates */expected.json: for each fixture directory (code/ tree, facts.yaml,
# cases.txt) runs Puppet 7.23's `puppet lookup --render-as json` for every line
# of cases.txt. When
# `puppet lookup` fails without a message (it swallows errors raised in the
# environment layer), the lookup is repeated inside a real catalog compile
# (the driver of /work/shared/oracle/puppet-compile) to record Puppet's error.
set -e
cd "$(dirname "$0")"
for fixture in ${@:-*/}; do
(cd "$fixture" && python3 - <<'PY'
import importlib.machinery, importlib.util, json, os, re, shlex, shutil, subprocess, tempfile, yaml
loader = importlib.machinery.SourceFileLoader('oc', '/work/shared/oracle/puppet-compile')
spec = importlib.util.spec_from_loader('oc', loader); oc = importlib.util.module_from_spec(spec); loader.exec_module(oc)
here = os.getcwd()
work = tempfile.mkdtemp()
shutil.copytree(os.path.join(here, "code"), os.path.join(work, "code"))
code = os.path.join(work, "code")
node = "web01.example.com"
facts = yaml.safe_load(open("facts.yaml"))
yamldir = os.path.join(work, "yaml")
os.makedirs(os.path.join(yamldir, "facts"))
with open(os.path.join(yamldir, "facts", node + ".yaml"), "w") as fh:
    fh.write("--- !ruby/object:Puppet::Node::Facts\n")
    fh.write(yaml.safe_dump({"name": node, "values": facts}, default_flow_style=False))
driver = os.path.join(work, "driver.rb")
open(driver, "w").write(oc.RUBY_DRIVER)

def compile_error(key, merge):
    mdir = os.path.join(code, "environments", "production", "manifests")
    os.makedirs(mdir, exist_ok=True)
    open(os.path.join(mdir, "site.pp"), "w").write("notify { 'r': message => String(lookup('%s'%s)) }\n" % (key, ", Any, '%s'" % merge if merge else ""))
    log = os.path.join(work, "compile.log")
    if os.path.exists(log):
        os.remove(log)
    argv = ["ruby", driver, "catalog", "compile", node, "--confdir", work, "--vardir", work,
            "--codedir", code, "--logdir", work, "--environmentpath", os.path.join(code, "environments"),
            "--yamldir", yamldir, "--facts_terminus", "yaml", "--node_terminus", "plain",
            "--hiera_config", os.path.join(code, "hiera.yaml"), "--color", "false",
            "--render-as", "json", "--logdest", log]
    env = dict(os.environ, HOME=work, LANG="C.UTF-8", LC_ALL="C.UTF-8")
    p = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=work)
    shutil.rmtree(mdir)
    lines = (open(log).read() if os.path.exists(log) else "").splitlines() + p.stderr.splitlines()
    for line in lines:
        if line.startswith("Error: ") and "Could not call" not in line:
            msg = line.strip()[len("Error: "):]
            msg = re.sub(r"^Evaluation Error: Error while evaluating a Function Call, ", "", msg)
            msg = re.sub(r" \(file: .*$", "", msg)
            msg = re.sub(r" on node \S+$", "", msg)
            return msg.replace(work, "$WORK")
    return "compile gave no error"

out = []
for line in open("cases.txt"):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    args = shlex.split(line)
    cmd = ["puppet", "lookup", args[0], "--node", node,
           "--confdir", work, "--vardir", work, "--logdir", work, "--codedir", code,
           "--hiera_config", os.path.join(code, "hiera.yaml"),
           "--facts", os.path.join(here, "facts.yaml"), "--render-as", "json"] + args[1:]
    p = subprocess.run(cmd, capture_output=True, text=True)
    err = re.sub(r"\x1b\[[0-9;]*m", "", p.stderr).strip()
    errors = [l for l in err.splitlines() if l.startswith("Error: ")]
    case = {"line": line}
    if p.returncode == 0 and p.stdout.strip():
        case["value"] = json.loads(p.stdout)
    elif errors:
        case["error"] = errors[0].replace("Error: Could not run: ", "").replace(work, "$WORK")
    else:
        merge = args[2] if len(args) == 3 and args[1] == "--merge" else None
        case["error"] = compile_error(args[0], merge) if len(args) == 1 or merge else "failed without a message"
    out.append(case)
with open("expected.json", "w") as fh:
    json.dump(out, fh, indent=1, ensure_ascii=False)
    fh.write("\n")
shutil.rmtree(work)
PY
)
done
