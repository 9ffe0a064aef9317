# Takes a keyword argument, which the subset does not run.
Puppet::Functions.create_function(:'hatchc::inner') do
  def inner(x)
    opts = { upcase: true }
    shout(x, **opts)
  end

  def shout(s, upcase: false)
    upcase ? s.upcase : s
  end
end
