import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createChunkscopeStore } from './store/store'
import { App } from './ui/App'
import { StoreProvider } from './ui/StoreContext'
import './index.css'

const container = document.getElementById('root')
if (!container) throw new Error('index.html has no #root element')

const store = createChunkscopeStore()

createRoot(container).render(
  <StrictMode>
    <StoreProvider store={store}>
      <App />
    </StoreProvider>
  </StrictMode>,
)
