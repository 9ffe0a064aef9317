# Describes the Ruby classes of its arguments.
Puppet::Functions.create_function(:'hatch::classes') do
  def classes(*args)
    args.map { |a| a.class.name }
  end
end
