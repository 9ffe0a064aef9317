Puppet::Functions.create_function(:'m::declare') do
  dispatch :declare do
    param 'String', :title
  end

  def declare(title)
    call_function('create_resources', 'notify', { title => { 'message' => 'declared' } })
    nil
  end
end
