# The directory the e2e resources are confined to, from the agent's
# environment; and whether this node's first run is still to come.
Facter.add(:e2e_root) do
  setcode { ENV['E2E_ROOT'] }
end

Facter.add(:e2e_first_run) do
  setcode do
    root = ENV['E2E_ROOT']
    name = ENV['E2E_CERTNAME']
    root && name ? !File.exist?(File.join(root, name, 'hello.txt')) : false
  end
end
